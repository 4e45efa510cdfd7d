// A JT/T 808 terminal on two real server processes (main.ts) on one PostgreSQL database, one MQTT
// broker and one Redis, over real TCP to each node's gateway (README, "Several nodes"; issue 20:
// nothing a node keeps in memory is needed by another). It registers and authenticates on node A
// and its location, answered once stored, is node B's latest state too; node A is killed with
// SIGKILL while a location is unanswered, and the terminal connects to node B with its saved
// code, without registering again: its re-send, a new location and a 0x0704 batch (each sent
// twice) are stored once each. With node A back (the same NODE_ID), the device's JT/T 808 view
// on either node says connected on node B, and a position query requested and approved on node
// A is written by node B, whose terminal's 0x0201 answer acknowledges it.
// Runs only with DATABASE_URL, MQTT_URL and REDIS_URL set (`npm run test:cluster`); each run has
// its own database, share group and node ids, so runs beside each other do not mix.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandEventRow, CommandRow } from '@iotc/shared/command';
import type { DeviceRow } from '@iotc/shared/device';
import type { Envelope, Page } from '@iotc/shared/envelope';
import { JT808_API, type Jt808Terminal } from '@iotc/shared/jt808';
import type { DeviceState, TelemetryRow } from '@iotc/shared/live';
import { ADMIN_PASSWORD, createPgDatabase } from '../test/harness.ts';
import { addOrgUser, createTenantUser } from '../test/fixtures.ts';
import { openDatabase } from '../db/client.ts';
import { TestTerminal } from '../modules/jt808/test-helpers.ts';
import { decodeRegistrationAnswer, encodeAuthentication, encodeRegistration, MSG } from '../modules/jt808/messages.ts';
import { encodeLocation, encodeLocationBatch, encodePositionAnswer, type LocationInit } from '../modules/jt808/location.ts';
import { endSessions, NODE_START_MS, nodeStarter, type Node } from './nodes.ts';

const { DATABASE_URL, MQTT_URL, REDIS_URL } = process.env;
const RUN = randomBytes(4).toString('hex');
const PHONE = '013977700001';
const PASSWORD = ADMIN_PASSWORD;

let db: { url: string; drop: () => Promise<void> };
let dataDir: string;
const nodes = nodeStarter((id) => ({
  ...process.env,
  DATABASE_URL: db.url,
  MQTT_URL,
  REDIS_URL,
  NODE_ID: id,
  MQTT_SHARE_GROUP: `jc${RUN}`,
  PORT: '0',
  JT808_PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  ADMIN_PASSWORD,
  SEED_DEMO: 'false',
  DEMO_SIMULATOR: 'false',
  LOG_LEVEL: 'warn',
}));
const ids = [`jc-${RUN}-a`, `jc-${RUN}-b`] as const;
let a: Node;
let b: Node;
/** Requests commands; `reviewer` approves them (never one's own). */
let operator: string;
let reviewer: string;
let deviceRef: string;
const terminals: Terminal[] = [];

/** A terminal on a real socket (TestTerminal) with the sign-in steps of the standard. */
class Terminal extends TestTerminal {
  async register(): Promise<string> {
    const serial = this.send(MSG.register, encodeRegistration({ edition: 2013, province: 44, city: 100, manufacturer: 'ACME', model: 'GT-808', terminalId: 'T0C0001', plateColour: 1, plate: '粤B·C0001' }));
    const answer = decodeRegistrationAnswer((await this.next(MSG.registerAnswer)).body);
    expect(answer).toMatchObject({ serial, result: 0 });
    return answer.authCode!;
  }

  /** Authenticates with `code`; answers the platform's result. */
  async authenticate(code: string): Promise<number> {
    const serial = this.send(MSG.authenticate, encodeAuthentication({ code }, false));
    const answer = await this.answer();
    expect(answer).toMatchObject({ serial, messageId: MSG.authenticate });
    return answer.result;
  }
}

async function open(node: Node): Promise<Terminal> {
  const term = await Terminal.open(node.jt808Port, PHONE);
  terminals.push(term);
  return term;
}

async function api<T>(node: Node, token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(node.url + path, {
    method,
    headers: { language: 'en-US', timezone: 'Asia/Shanghai', access_token: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as Envelope<T>;
  if (res.status !== 200) throw new Error(`${method} ${path} on ${node.id}: ${res.status} ${envelope.errormsg}`);
  return envelope.data as T;
}

async function login(node: Node, account: string): Promise<string> {
  const res = await fetch(`${node.url}/iot-cloud-auth/auth/v1/login`, {
    method: 'POST',
    headers: { language: 'en-US', 'content-type': 'application/json' },
    body: JSON.stringify({ account, password: PASSWORD }),
  });
  const envelope = (await res.json()) as Envelope<{ token: string }>;
  if (res.status !== 200) throw new Error(`login of ${account} on ${node.id}: ${res.status} ${envelope.errormsg}`);
  return envelope.data!.token;
}

/** A fix at a device time, as a terminal sends it. */
const fix = (time: number, more: Partial<LocationInit> = {}): LocationInit => ({
  latitude: 22.543096,
  longitude: 114.057865,
  altitude: 20,
  speedKmh: 60,
  direction: 180,
  positioned: true,
  acc: true,
  time: new Date(time),
  ...more,
});

/** Device times (ISO) of the terminal's stored readings, from node `node`'s API, oldest first. */
async function storedTimes(node: Node, from: number): Promise<string[]> {
  const q = new URLSearchParams({ device: deviceRef, from: new Date(from).toISOString(), to: new Date().toISOString(), size: '100', sort: 'time,asc' });
  return (await api<Page<TelemetryRow>>(node, operator, 'GET', `/api/iot/v2/telemetry?${q}`)).rows.map((r) => r.time);
}

/** Whole seconds, as the wire carries them; the readings of this run are within the last hour. */
const BASE = Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000;
const at = (minutes: number, seconds = 0) => BASE + minutes * 60_000 + seconds * 1000;
const iso = (t: number) => new Date(t).toISOString();

describe.skipIf(!DATABASE_URL || !MQTT_URL || !REDIS_URL)('a JT/T 808 terminal on two nodes on one PostgreSQL, MQTT broker and Redis', () => {
  let code = '';
  /** The location node A was writing when it was killed: sent, never answered. */
  let unanswered: { bytes: Buffer; serial: number };
  let restarted: Promise<Node>;
  let moved: Terminal;

  beforeAll(async () => {
    db = await createPgDatabase(DATABASE_URL!);
    dataDir = mkdtempSync(join(tmpdir(), 'iotc-jt808-cluster-'));
    [a, b] = await Promise.all([nodes.start(ids[0]), nodes.start(ids[1])]);
    // Two users of one organisation: an operator who requests commands, a reviewer who approves them.
    const database = await openDatabase({ kind: 'postgres', url: db.url });
    try {
      const tenant = await createTenantUser(database.db, {
        code: `jc${RUN}`,
        account: `jc-op-${RUN}`,
        password: PASSWORD,
        permissions: ['device:read', 'device:write', 'command:request', 'command:review'],
      });
      await addOrgUser(database.db, { orgId: tenant.org.id, account: `jc-rev-${RUN}`, password: PASSWORD, roleCodes: ['op'] });
    } finally {
      await database.close();
    }
    [operator, reviewer] = await Promise.all([login(a, `jc-op-${RUN}`), login(b, `jc-rev-${RUN}`)]);
    const device = await api<DeviceRow>(a, operator, 'POST', '/api/iot/v2/devices', { deviceId: PHONE, name: 'Reefer truck 粤B·C0001', protocol: 'jt808' });
    expect(device).toMatchObject({ deviceId: PHONE, protocol: 'jt808' });
    deviceRef = device.id;
  }, 2 * NODE_START_MS + 30_000);

  afterAll(async () => {
    for (const t of terminals) t.end();
    await restarted?.catch(() => undefined);
    await nodes.stopAll();
    await endSessions(MQTT_URL!, [...ids]).catch(() => undefined);
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('registers and authenticates on node A; its location, answered once stored, is the latest state on node B', async () => {
    const term = await open(a);
    code = await term.register();
    expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await term.authenticate(code)).toBe(0);
    const serial = term.send(MSG.location, encodeLocation(fix(at(0), { mileageKm: 5120.4 })));
    expect(await term.answer()).toEqual({ serial, messageId: MSG.location, result: 0 });
    // Answered: stored, so node B reads it from the database at once.
    const latest = await api<DeviceState>(b, operator, 'GET', `/api/iot/v2/devices/${deviceRef}/latest`);
    expect(latest).toMatchObject({ deviceId: PHONE, time: iso(at(0)), lat: 22.543096, lon: 114.057865, speed: 60, course: 180, acc: true });
    expect(await storedTimes(b, BASE)).toEqual([iso(at(0))]);
    const view = await api<Jt808Terminal>(b, operator, 'GET', JT808_API.terminal(deviceRef));
    expect(view.registration).toMatchObject({ manufacturer: 'ACME', model: 'GT-808', terminalId: 'T0C0001', plate: '粤B·C0001', hasCode: true });
    expect(view.connection).toMatchObject({ connected: true, node: a.id, remoteAddress: '127.0.0.1' });
    // Node A is killed while the next location is on its way: sent, and never answered.
    unanswered = term.frame(MSG.location, encodeLocation(fix(at(1))));
    term.write(unanswered.bytes);
    await nodes.stop(a, 'SIGKILL');
    await term.closed;
    expect(term.has(MSG.platformAnswer)).toBe(false);
    // Node A comes back under its NODE_ID in the background, for the last case.
    restarted = nodes.start(ids[0]);
    restarted.catch(() => undefined);
  }, 60_000);

  it('node A killed: the terminal authenticates on node B with its saved code, without registering again; re-sends, a location and a batch are stored once each', async () => {
    moved = await open(b);
    // The code node A gave is in the database: node B takes it. No 0x0100 on this connection.
    expect(await moved.authenticate(code)).toBe(0);
    // The location node A never answered, sent again as it was (same serial): stored (once).
    moved.write(unanswered.bytes);
    expect(await moved.answer()).toEqual({ serial: unanswered.serial, messageId: MSG.location, result: 0 });
    const location = moved.frame(MSG.location, encodeLocation(fix(at(2))));
    moved.write(location.bytes);
    expect(await moved.answer()).toEqual({ serial: location.serial, messageId: MSG.location, result: 0 });
    // The fixes of a coverage gap, as a 0x0704 blind-area batch, each at its own device time.
    const batch = moved.frame(MSG.locationBatch, encodeLocationBatch({ type: 1, items: [fix(at(3)), fix(at(3, 30), { positioned: false, latitude: 0, longitude: 0 }), fix(at(4))] }));
    moved.write(batch.bytes);
    expect(await moved.answer()).toEqual({ serial: batch.serial, messageId: MSG.locationBatch, result: 0 });
    // The terminal did not see those answers (say) and sends both again: answered again, stored once.
    moved.write(location.bytes);
    expect(await moved.answer()).toEqual({ serial: location.serial, messageId: MSG.location, result: 0 });
    moved.write(batch.bytes);
    expect(await moved.answer()).toEqual({ serial: batch.serial, messageId: MSG.locationBatch, result: 0 });
    expect(moved.has(MSG.registerAnswer)).toBe(false);
    expect(await storedTimes(b, BASE)).toEqual([at(0), at(1), at(2), at(3), at(3, 30), at(4)].map(iso));
    const latest = await api<DeviceState>(b, operator, 'GET', `/api/iot/v2/devices/${deviceRef}/latest`);
    expect(latest).toMatchObject({ time: iso(at(4)), lat: 22.543096, lon: 114.057865 });
  }, 60_000);

  it('node A back: either node shows the terminal connected on node B, and a position query approved on node A is written by node B and acknowledged', async () => {
    a = await restarted;
    for (const node of [a, b]) {
      const view = await api<Jt808Terminal>(node, operator, 'GET', JT808_API.terminal(deviceRef));
      expect(view.connection, node.id).toMatchObject({ connected: true, node: b.id });
    }
    const requested = await api<CommandRow>(a, operator, 'POST', '/api/iot/v2/commands', { deviceRef, kind: 'position_query' });
    const approved = await api<CommandRow>(a, reviewer, 'POST', `/api/iot/v2/commands/${requested.id}/review`, { approve: true, password: PASSWORD });
    expect(approved.status).toBe('sent');
    // Node A holds no connection of it: node B, which does, writes the 0x8201.
    const query = await moved.next(MSG.positionQuery);
    expect(query.body.length).toBe(0);
    const time = Math.floor(Date.now() / 1000) * 1000 - 5000;
    moved.send(MSG.positionAnswer, encodePositionAnswer({ serial: query.header.serial, location: fix(time, { latitude: 22.6, longitude: 114.1, speedKmh: 0 }) }));
    const deadline = Date.now() + 30_000;
    let row = approved;
    while (row.status === 'sent' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      row = await api<CommandRow>(a, operator, 'GET', `/api/iot/v2/commands/${requested.id}`);
    }
    expect(row).toMatchObject({ status: 'acknowledged', result: '22.600000,114.100000', failure: null });
    const story = await api<CommandEventRow[]>(a, operator, 'GET', `/api/iot/v2/commands/${requested.id}/events`);
    expect(story.map((e) => e.kind)).toEqual(['requested', 'approved', 'sent', 'delivered', 'acknowledged']);
    expect(story.find((e) => e.kind === 'delivered')!.detail).toEqual({ node: b.id, serial: query.header.serial, messageId: MSG.positionQuery });
    // The 0x0201's fix is stored too, and node A reads it.
    expect(await storedTimes(a, BASE)).toContain(iso(time));
  }, NODE_START_MS + 60_000);
});
