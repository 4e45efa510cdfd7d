// `npm run start:cluster [-- --nodes N]`: several server processes on this machine against one
// PostgreSQL, one MQTT broker and one Redis (defaults: the local ones), the way a multi-node
// installation runs them (README, "Several nodes"). Each node gets its own port (CLUSTER_BASE_PORT,
// default 3000, then +1 ...) and NODE_ID (node-1, node-2 ...); they share DATA_DIR (default
// ./data/cluster), where the first one makes the ledger's signer key that all then use; only node-1
// runs the demo simulator. Each line of output is prefixed with its node. SIGINT / SIGTERM stop
// every node (each drains as on its own), then this script exits. `--no-build` skips the web
// build check; CLUSTER_NODE_PREFIX renames the nodes (<prefix>-1 ...), e.g. for a second set.
import { spawn, execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import pg from 'pg';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function parseNodes(argv) {
  const i = argv.indexOf('--nodes');
  const raw = i >= 0 ? argv[i + 1] : (argv.find((a) => a.startsWith('--nodes='))?.slice(8) ?? '2');
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 16) {
    console.error(`--nodes must be a whole number from 1 to 16 (got "${raw}")`);
    process.exit(1);
  }
  return n;
}

const nodes = parseNodes(process.argv.slice(2));
const env = {
  DATABASE_URL: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/iotc_cluster',
  MQTT_URL: process.env.MQTT_URL || 'mqtt://127.0.0.1:1883',
  REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  DATA_DIR: process.env.DATA_DIR || join(root, 'data', 'cluster'),
};
const basePort = Number(process.env.CLUSTER_BASE_PORT || 3000);
/** NODE_IDs are <prefix>-1, <prefix>-2 ...: the same at every start, so each node gets its broker session back. */
const prefix = process.env.CLUSTER_NODE_PREFIX || 'node';
if (!Number.isInteger(basePort) || basePort < 1 || basePort + nodes - 1 > 65535) {
  console.error(`CLUSTER_BASE_PORT must be a port number (got "${process.env.CLUSTER_BASE_PORT}")`);
  process.exit(1);
}

/** Resolves when something answers on the URL's host and port, else rejects with a line saying what is missing. */
function reachable(what, url, defaultPort) {
  const u = new URL(url);
  const port = Number(u.port || defaultPort);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: u.hostname, port, timeout: 3000 });
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    const fail = () => {
      socket.destroy();
      reject(new Error(`${what} does not answer at ${u.hostname}:${port}`));
    };
    socket.once('timeout', fail);
    socket.once('error', fail);
  });
}

/** Creates the database of DATABASE_URL when it does not exist yet. */
async function ensureDatabase(url) {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1));
  if (!name) throw new Error('DATABASE_URL names no database');
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`create database "${name.replace(/"/g, '""')}"`);
      console.log(`Created database ${name}`);
    }
  } finally {
    await client.end();
  }
}

try {
  await Promise.all([
    reachable('PostgreSQL (DATABASE_URL)', env.DATABASE_URL, 5432),
    reachable('The MQTT broker (MQTT_URL)', env.MQTT_URL, 1883),
    reachable('Redis (REDIS_URL)', env.REDIS_URL, 6379),
  ]);
  await ensureDatabase(env.DATABASE_URL);
} catch (e) {
  console.error(`Cannot start the cluster: ${e.message}`);
  process.exit(1);
}
if (!process.argv.includes('--no-build')) execFileSync(process.execPath, [join(root, 'scripts/ensure-web-build.mjs')], { cwd: root, stdio: 'inherit' });

const shown = (url) => {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
};
console.log(
  `Starting ${nodes} node(s): database ${shown(env.DATABASE_URL)}, MQTT ${shown(env.MQTT_URL)}, Redis ${shown(env.REDIS_URL)}, data ${env.DATA_DIR}`,
);

const children = [];
let stopping = false;
const addresses = new Map();
/** Once every node has printed its address, one summary line says where each is. */
function running(id, address) {
  addresses.set(id, address);
  if (addresses.size !== nodes) return;
  const list = [...addresses].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
  setTimeout(() => console.log(`\nAll ${nodes} node(s) are running: ${list.map(([n, a]) => `${n} ${a}`).join(', ')}\n`), 50);
}
for (let i = 1; i <= nodes; i++) {
  const id = `${prefix}-${i}`;
  const port = basePort + i - 1;
  // As `npm start`: a young generation of up to 64 MB (README, "Performance", JT/T 808 intake).
  const child = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      NODE_ID: id,
      PORT: String(port),
      // Each node its own JT/T 808 port on one machine (a TCP load balancer in front spreads terminals).
      JT808_PORT: process.env.JT808_PORT ? String(Number(process.env.JT808_PORT) + i - 1) : String(6808 + i - 1),
      // One simulator for the demo fleet; its reports reach every node through the broker.
      DEMO_SIMULATOR: i === 1 ? (process.env.DEMO_SIMULATOR ?? 'true') : 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tag = `[${id}] `;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      const out = stream === child.stderr ? process.stderr : process.stdout;
      out.write(tag + line + '\n');
      const at = /^IoT Cloud Console is running at (\S+)/.exec(line)?.[1];
      if (at) running(id, at);
    });
  }
  child.on('exit', (code, signal) => {
    console.log(`${tag}stopped (${signal ?? `exit code ${code}`})`);
    children.splice(children.indexOf(child), 1);
    if (children.length === 0) process.exit(stopping ? 0 : 1);
  });
  children.push(child);
}

function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping ${children.length} node(s)`);
  for (const c of children) c.kill('SIGTERM');
  // A node that does not stop within 30 s is killed.
  setTimeout(() => children.forEach((c) => c.kill('SIGKILL')), 30_000).unref();
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
