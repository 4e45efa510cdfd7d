// Test helper: a browser's live WebSocket (GET /api/iot/v2/live?access_token=...) as the API and
// hub tests open it, collecting every message, and a poll for what they wait to see.
import WebSocket from 'ws';
import type { LiveMessage } from '@iotc/shared/live';

export interface LiveSocket {
  ws: WebSocket;
  /** Every message received so far, in order. */
  messages: LiveMessage[];
  /** The close code, once the socket closes. */
  closed: Promise<number>;
}

/** Opens the live socket of `base` (ws://host:port) with a token; resolves once it is open. */
export async function openLive(base: string, accessToken: string): Promise<LiveSocket> {
  const ws = new WebSocket(`${base}/api/iot/v2/live?access_token=${encodeURIComponent(accessToken)}`);
  const messages: LiveMessage[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data)) as LiveMessage));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, messages, closed };
}

/** Polls `check` until it holds or `ms` pass; answers whether it held. */
export async function until(check: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  return check();
}
