import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceState } from '@iotc/shared/live';
import { endSession } from './session.ts';
import { LiveConnection, liveUrl, reconnectDelay, shouldReconnect, type LiveStatus, type SocketLike } from './live.ts';

class FakeSocket implements SocketLike {
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  closedWith: number | undefined;
  constructor(readonly url: string) {}
  close(code?: number) {
    this.closedWith = code;
  }
  /** The server ends the connection. */
  drop(code: number) {
    this.onerror?.(new Event('error'));
    this.onclose?.({ code } as CloseEvent);
  }
  send(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) } as MessageEvent);
  }
}

function state(id: string): DeviceState {
  return {
    id,
    deviceId: `dev-${id}`,
    name: id,
    orgId: 'o',
    orgName: 'Org',
    status: 'driving',
    time: null,
    lastSeenAt: null,
    lat: null,
    lon: null,
    positioning: null,
    network: null,
    speed: 50,
    course: null,
    acc: true,
    sensors: {},
    asset: null,
  };
}

let sockets: FakeSocket[];
let statuses: LiveStatus[];
let batches: DeviceState[][];
let hellos: number;
let token: string | undefined;

function connection() {
  return new LiveConnection({
    token: () => token,
    socket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    url: (t) => `ws://test/live?access_token=${t}`,
    onStates: (s) => batches.push(s),
    onHello: () => (hellos += 1),
    onStatus: (s) => statuses.push(s),
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  statuses = [];
  batches = [];
  hellos = 0;
  token = 'tok en';
});
afterEach(() => vi.useRealTimers());

describe('live channel policy', () => {
  it('waits 1 s, 2 s, 5 s and then 10 s between attempts', () => {
    expect([0, 1, 2, 3, 4, 20].map(reconnectDelay)).toEqual([1000, 2000, 5000, 10_000, 10_000, 10_000]);
  });

  it('gives up only on an invalid session or a missing permission', () => {
    expect(shouldReconnect(4401)).toBe(false);
    expect(shouldReconnect(4403)).toBe(false);
    expect(shouldReconnect(1006)).toBe(true);
    expect(shouldReconnect(1001)).toBe(true);
    expect(shouldReconnect(1011)).toBe(true);
  });

  it('addresses the page host with the token in the query', () => {
    expect(liveUrl('a/b', { protocol: 'https:', host: 'x.test' })).toBe('wss://x.test/api/iot/v2/live?access_token=a%2Fb');
    expect(liveUrl('t', { protocol: 'http:', host: '127.0.0.1:3000' })).toBe('ws://127.0.0.1:3000/api/iot/v2/live?access_token=t');
  });
});

describe('LiveConnection', () => {
  it('opens on hello and hands over device-state batches', () => {
    const c = connection();
    c.start();
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.url).toBe('ws://test/live?access_token=tok en');
    expect(c.status).toBe('connecting');
    sockets[0]!.send({ type: 'hello', data: { offlineAfterMs: 600_000 } });
    expect(c.status).toBe('open');
    expect(hellos).toBe(1);
    sockets[0]!.send({ type: 'device-states', data: [state('a'), state('b')] });
    sockets[0]!.onmessage?.({ data: 'not json' } as MessageEvent);
    expect(batches.map((b) => b.map((s) => s.id))).toEqual([['a', 'b']]);
    c.stop();
  });

  it('reconnects with back-off after drops and starts over once admitted again', () => {
    const c = connection();
    c.start();
    sockets[0]!.drop(1006);
    expect(c.status).toBe('connecting');
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);

    sockets[1]!.drop(1006);
    vi.advanceTimersByTime(1999);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);

    sockets[2]!.drop(1006);
    vi.advanceTimersByTime(5000);
    expect(sockets).toHaveLength(4);
    sockets[3]!.drop(1006);
    vi.advanceTimersByTime(9999);
    expect(sockets).toHaveLength(4);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(5);
    sockets[4]!.drop(1006);
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(6);

    // Admitted: the next outage waits 1 s again.
    sockets[5]!.send({ type: 'hello', data: { offlineAfterMs: 1 } });
    expect(c.status).toBe('open');
    sockets[5]!.drop(1001);
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(7);
    c.stop();
  });

  it('stays closed after 4401 or 4403', () => {
    for (const code of [4401, 4403]) {
      sockets = [];
      const c = connection();
      c.start();
      sockets[0]!.send({ type: 'hello', data: { offlineAfterMs: 1 } });
      sockets[0]!.drop(code);
      expect(c.status).toBe('closed');
      expect(c.closeCode).toBe(code);
      vi.advanceTimersByTime(60_000);
      expect(sockets).toHaveLength(1);
    }
  });

  it('does not connect without a token', () => {
    token = undefined;
    const c = connection();
    c.start();
    expect(sockets).toHaveLength(0);
    expect(c.status).toBe('closed');
  });

  it('closes the socket and cancels a pending reconnect when stopped', () => {
    const c = connection();
    c.start();
    sockets[0]!.drop(1006);
    c.stop();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);

    const d = connection();
    d.start();
    const open = sockets[1]!;
    d.stop();
    expect(open.closedWith).toBe(1000);
    // A late close event of the stopped socket changes nothing.
    open.onclose?.({ code: 1006 } as CloseEvent);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(2);
    expect(statuses.at(-1)).not.toBe('open');
  });

  it('closes at a deliberate logout, before the server drops the revoked token, and reconnects no more', () => {
    const c = connection();
    c.start();
    const open = sockets[0]!;
    open.send({ type: 'hello', data: { offlineAfterMs: 600_000 } });
    endSession();
    expect(open.closedWith).toBe(1000);
    // The server's own close for the revoked token arrives later: nothing reacts to it.
    open.onclose?.({ code: 4401 } as CloseEvent);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    // A connection stopped before the logout is not touched by it.
    const d = connection();
    d.start();
    d.stop();
    endSession();
    expect(sockets).toHaveLength(2);
  });
});
