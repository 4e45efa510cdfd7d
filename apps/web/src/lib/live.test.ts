import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlarmRow } from '@iotc/shared/alarm';
import type { DeviceState } from '@iotc/shared/live';
import { endSession } from './session.ts';
import { LiveConnection, LiveTab, liveUrl, reconnectDelay, shouldReconnect, type LiveStatus, type LiveSubscriber, type SocketLike } from './live.ts';

class FakeSocket implements SocketLike {
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  closedWith: number | undefined;
  /** What the page sent, parsed. */
  sent: unknown[] = [];
  constructor(readonly url: string) {}
  close(code?: number) {
    this.closedWith = code;
  }
  /** The server ends the connection. */
  drop(code: number) {
    this.onerror?.(new Event('error'));
    this.onclose?.({ code } as CloseEvent);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  /** The socket opens. */
  open() {
    this.onopen?.(new Event('open'));
  }
  /** The server sends a message. */
  receive(msg: unknown) {
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

/** The token, the fake sockets and the address every connection of these tests uses. */
function transport() {
  return {
    token: () => token,
    socket: (url: string) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    url: (t: string) => `ws://test/live?access_token=${t}`,
  };
}

function connection() {
  return new LiveConnection({
    ...transport(),
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
    sockets[0]!.receive({ type: 'hello', data: { offlineAfterMs: 600_000 } });
    expect(c.status).toBe('open');
    expect(hellos).toBe(1);
    sockets[0]!.receive({ type: 'device-states', data: [state('a'), state('b')] });
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
    sockets[5]!.receive({ type: 'hello', data: { offlineAfterMs: 1 } });
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
      sockets[0]!.receive({ type: 'hello', data: { offlineAfterMs: 1 } });
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
    open.receive({ type: 'hello', data: { offlineAfterMs: 600_000 } });
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

describe('LiveTab: one connection for the tab', () => {
  const hello = { type: 'hello', data: { offlineAfterMs: 600_000 } };
  function tab() {
    return new LiveTab(transport());
  }
  /** A subscriber recording what it is handed. */
  function screen(states?: true | string[], alarms = false) {
    const got = { states: [] as string[], alarms: [] as string[], hellos: 0, statuses: [] as LiveStatus[] };
    const sub: LiveSubscriber = {
      states,
      alarms,
      onStates: (b) => got.states.push(...b.map((s) => s.id)),
      onAlarms: (b) => got.alarms.push(...b.map((a) => a.id)),
      onHello: () => (got.hellos += 1),
      onStatus: (s) => got.statuses.push(s),
    };
    return { sub, got };
  }
  const alarm = (id: string) => ({ id }) as unknown as AlarmRow;

  it('opens one socket for several screens, subscribes their union and hands each what it asked for', () => {
    const t = tab();
    const map = screen(true);
    const notifier = screen(undefined, true);
    const panel = screen(['b']);
    t.subscribe(map.sub);
    t.subscribe(notifier.sub);
    t.subscribe(panel.sub);
    expect(sockets).toHaveLength(1);
    expect(notifier.got.statuses).toEqual(['connecting']);
    sockets[0]!.open();
    expect(sockets[0]!.sent).toEqual([{ type: 'subscribe', topics: { states: true, alarms: true } }]);
    sockets[0]!.receive(hello);
    expect([map.got.hellos, notifier.got.hellos, panel.got.hellos]).toEqual([1, 1, 1]);
    expect(map.got.statuses.at(-1)).toBe('open');
    sockets[0]!.receive({ type: 'device-states', data: [state('a'), state('b')] });
    sockets[0]!.receive({ type: 'alarms', data: [alarm('x')] });
    expect(map.got).toMatchObject({ states: ['a', 'b'], alarms: [] });
    expect(panel.got).toMatchObject({ states: ['b'], alarms: [] });
    expect(notifier.got).toMatchObject({ states: [], alarms: ['x'] });
  });

  it('subscribes only the devices named when no screen wants them all, and narrows the subscription as screens leave', () => {
    const t = tab();
    const one = screen(['b', 'a']);
    const two = screen(['c']);
    const notifier = screen(undefined, true);
    const leaveOne = t.subscribe(one.sub);
    t.subscribe(two.sub);
    const leaveNotifier = t.subscribe(notifier.sub);
    sockets[0]!.open();
    sockets[0]!.receive(hello);
    expect(sockets[0]!.sent).toEqual([{ type: 'subscribe', topics: { states: { devices: ['a', 'b', 'c'] }, alarms: true } }]);
    leaveNotifier();
    leaveOne();
    expect(sockets[0]!.sent.slice(1)).toEqual([
      { type: 'subscribe', id: 1, topics: { states: { devices: ['a', 'b', 'c'] } } },
      { type: 'subscribe', id: 2, topics: { states: { devices: ['c'] } } },
    ]);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.closedWith).toBeUndefined();
  });

  it('greets a screen joining an open connection once the server has its wider subscription in force', () => {
    const t = tab();
    const notifier = screen(undefined, true);
    t.subscribe(notifier.sub);
    sockets[0]!.open();
    sockets[0]!.receive(hello);
    const page = screen(true);
    t.subscribe(page.sub);
    expect(page.got.statuses).toEqual(['open']);
    expect(sockets[0]!.sent.at(-1)).toEqual({ type: 'subscribe', id: 1, topics: { states: true, alarms: true } });
    expect(page.got.hellos).toBe(0);
    sockets[0]!.receive({ type: 'subscribed', data: { id: 1 } });
    expect(page.got.hellos).toBe(1);
    expect(notifier.got.hellos).toBe(1);
    // A screen asking nothing new is greeted at once, and nothing is sent.
    const another = screen(true);
    t.subscribe(another.sub);
    expect(another.got.hellos).toBe(1);
    expect(sockets[0]!.sent).toHaveLength(2);
  });

  it('subscribes each new socket again after a reconnect and greets every screen', () => {
    const t = tab();
    const page = screen(true);
    const notifier = screen(undefined, true);
    t.subscribe(page.sub);
    t.subscribe(notifier.sub);
    sockets[0]!.open();
    sockets[0]!.receive(hello);
    sockets[0]!.drop(1006);
    expect(page.got.statuses.at(-1)).toBe('connecting');
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(2);
    sockets[1]!.open();
    expect(sockets[1]!.sent).toEqual([{ type: 'subscribe', topics: { states: true, alarms: true } }]);
    sockets[1]!.receive(hello);
    expect([page.got.hellos, notifier.got.hellos]).toEqual([2, 2]);
  });

  it('closes the socket when the last screen leaves and opens a new one for the next', () => {
    const t = tab();
    const leaveA = t.subscribe(screen(true).sub);
    const leaveB = t.subscribe(screen(undefined, true).sub);
    sockets[0]!.open();
    leaveA();
    expect(sockets[0]!.closedWith).toBeUndefined();
    leaveB();
    expect(sockets[0]!.closedWith).toBe(1000);
    expect(t.connected).toBe(false);
    // Leaving twice changes nothing.
    leaveB();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    t.subscribe(screen(true).sub);
    expect(sockets).toHaveLength(2);
  });

  it('closes at logout and opens again for a screen after the next sign-in', () => {
    const t = tab();
    const page = screen(true);
    t.subscribe(page.sub);
    sockets[0]!.open();
    sockets[0]!.receive(hello);
    endSession();
    expect(sockets[0]!.closedWith).toBe(1000);
    expect(t.connected).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    t.subscribe(screen(undefined, true).sub);
    expect(sockets).toHaveLength(2);
  });

  it('stays closed after the server refuses a message (4400), telling every screen', () => {
    const t = tab();
    const page = screen(true);
    t.subscribe(page.sub);
    sockets[0]!.open();
    sockets[0]!.drop(4400);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(page.got.statuses.at(-1)).toBe('closed');
  });
});
