// Real server processes (main.ts) for the several-nodes tests: started with an environment of the
// test's choosing, known by the address and the JT/T 808 port their start banner prints, stopped
// by a signal; and the broker sessions their NODE_IDs leave behind, ended afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { EXTERNAL_CONNECTIONS } from '../ingest/mqtt.ts';

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
/** A node on a loaded machine (two cores shared by several test runs) may take this long to start. */
export const NODE_START_MS = 150_000;

export interface Node {
  id: string;
  proc: ChildProcess;
  /** Its HTTP address, from the banner's first line. */
  url: string;
  /** Its JT/T 808 gateway's TCP port, from the banner's "JT/T 808: TCP on port N" line. */
  jt808Port: number;
  /** The last lines of its output, for a failure's message. */
  out: string[];
}

/**
 * Starts and stops nodes with `env(id)` as their environment; `running` holds the ones started
 * and not stopped yet, for the clean-up.
 */
export function nodeStarter(env: (id: string) => NodeJS.ProcessEnv) {
  const running: Node[] = [];

  /** Starts main.ts as node `id` and resolves once its banner has named its address and JT/T 808 port. */
  function start(id: string): Promise<Node> {
    const proc = spawn(process.execPath, ['--import', 'tsx', MAIN], { env: env(id), stdio: ['ignore', 'pipe', 'pipe'] });
    const out: string[] = [];
    let url: string | undefined;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(new Error(`${id} did not start within ${NODE_START_MS / 1000} s:\n${out.join('\n')}`));
      }, NODE_START_MS);
      for (const stream of [proc.stdout!, proc.stderr!]) {
        createInterface({ input: stream }).on('line', (line) => {
          out.push(line);
          if (out.length > 200) out.shift();
          url ??= /IoT Cloud Console is running at (http:\/\/\S+)/.exec(line)?.[1];
          const port = /^\s*JT\/T 808: TCP on port (\d+)/.exec(line)?.[1];
          if (url && port) {
            clearTimeout(timer);
            const node = { id, proc, url, jt808Port: Number(port), out };
            running.push(node);
            resolve(node);
          }
        });
      }
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`${id} stopped (${signal ?? code}) before it started:\n${out.join('\n')}`));
      });
    });
  }

  /** Sends `signal` (SIGTERM: a graceful stop; SIGKILL: a crash) and resolves once the process is gone. */
  async function stop(node: Node, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const i = running.indexOf(node);
    if (i >= 0) running.splice(i, 1);
    if (node.proc.exitCode !== null || node.proc.signalCode !== null) return;
    const exited = new Promise<void>((r) => node.proc.once('exit', () => r()));
    node.proc.kill(signal);
    await exited;
  }

  return { start, stop, running, stopAll: () => Promise.all([...running].map((n) => stop(n))) };
}

/** Ends the persistent sessions of these node ids on the broker, so no queue is left behind. */
export async function endSessions(mqttUrl: string, ids: string[]): Promise<void> {
  await Promise.all(
    ids.flatMap((id) =>
      Array.from({ length: EXTERNAL_CONNECTIONS }, async (_, n) => {
        const c = await mqtt.connectAsync(mqttUrl, { clientId: `${id}-${n}`, clean: true, protocolVersion: 5, properties: { sessionExpiryInterval: 0 }, reconnectPeriod: 0 });
        await c.endAsync();
      }),
    ),
  );
}
