// The tab's live connection as screens use it: hooks under one LiveProvider share one WebSocket,
// which carries the union of what they subscribe to and closes when the last of them goes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, useState } from 'react';
import type { AlarmRow } from '@iotc/shared/alarm';
import type { DeviceState } from '@iotc/shared/live';
import { render, type Rendered } from '../test/dom.tsx';
import { setToken } from './session.ts';
import { LiveProvider } from './live-provider.tsx';
import { useLiveAlarms, useLiveRefresh, useLiveStates, type LiveChannel } from './live.ts';

/** A WebSocket the test drives. */
class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  closed: number | undefined;
  sent: unknown[] = [];
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close(code?: number) {
    this.closed = code;
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  open() {
    act(() => this.onopen?.(new Event('open')));
  }
  receive(msg: unknown) {
    act(() => this.onmessage?.({ data: JSON.stringify(msg) } as MessageEvent));
  }
}

const got = { states: [] as string[], alarms: [] as string[] };
const channels: Record<string, LiveChannel> = {};

function StatesScreen({ name }: { name: string }) {
  channels[name] = useLiveStates((b: DeviceState[]) => got.states.push(...b.map((s) => `${name}:${s.id}`)));
  return null;
}
function AlarmsScreen({ name }: { name: string }) {
  channels[name] = useLiveAlarms((b: AlarmRow[]) => got.alarms.push(...b.map((a) => `${name}:${a.id}`)));
  return null;
}

/** A cockpit-like page (states and alarms) beside the layout's alarm notifier; each can go away. */
let show: (s: { page: boolean; notifier: boolean }) => void;
function Tab() {
  const [on, setOn] = useState({ page: true, notifier: true });
  show = setOn;
  return (
    <LiveProvider>
      {on.notifier ? <AlarmsScreen name="notifier" /> : null}
      {on.page ? (
        <>
          <StatesScreen name="page" />
          <AlarmsScreen name="page-alarms" />
        </>
      ) : null}
    </LiveProvider>
  );
}

let mounted: Rendered | undefined;
beforeEach(() => {
  FakeSocket.all = [];
  got.states = [];
  got.alarms = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  setToken('live-token');
});
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('LiveProvider', () => {
  it('serves three hooks through one socket subscribed to their union, and closes it when the last leaves', () => {
    mounted = render(<Tab />);
    expect(FakeSocket.all).toHaveLength(1);
    const socket = FakeSocket.all[0]!;
    expect(socket.url).toMatch(/\/api\/iot\/v2\/live\?access_token=live-token$/);
    socket.open();
    expect(socket.sent).toEqual([{ type: 'subscribe', topics: { states: true, alarms: true } }]);
    socket.receive({ type: 'hello', data: { offlineAfterMs: 600_000 } });
    expect(Object.values(channels).map((c) => c.status)).toEqual(['open', 'open', 'open']);
    socket.receive({ type: 'device-states', data: [{ id: 'd1' }] });
    socket.receive({ type: 'alarms', data: [{ id: 'a1' }] });
    expect(got.states).toEqual(['page:d1']);
    expect(got.alarms.sort()).toEqual(['notifier:a1', 'page-alarms:a1']);

    // The page goes: only alarms are wanted now, on the same socket.
    act(() => show({ page: false, notifier: true }));
    expect(socket.sent.at(-1)).toEqual({ type: 'subscribe', id: 1, topics: { alarms: true } });
    expect(socket.closed).toBeUndefined();
    act(() => show({ page: false, notifier: false }));
    expect(socket.closed).toBe(1000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('subscribes a new socket again after a drop and tells every hook', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    mounted = render(<Tab />);
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.receive({ type: 'hello', data: { offlineAfterMs: 600_000 } });
    act(() => FakeSocket.all[0]!.onclose?.({ code: 1006 } as CloseEvent));
    expect(channels['notifier']!.status).toBe('connecting');
    act(() => vi.advanceTimersByTime(999));
    expect(FakeSocket.all).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.open();
    expect(FakeSocket.all[1]!.sent).toEqual([{ type: 'subscribe', topics: { states: true, alarms: true } }]);
    FakeSocket.all[1]!.receive({ type: 'hello', data: { offlineAfterMs: 600_000 } });
    expect(Object.values(channels).map((c) => c.status)).toEqual(['open', 'open', 'open']);
  });

  it('subscribes a screen to the devices of its rows only, again as its rows change, and re-reads on their reports and on task changes', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let refreshes = 0;
    let setRows: (rows: string[]) => void = () => undefined;
    function RowsScreen() {
      const [rows, set] = useState<string[]>([]);
      setRows = set;
      useLiveRefresh(() => (refreshes += 1), { tasks: true, devices: rows, minMs: 1000 });
      return null;
    }
    mounted = render(
      <LiveProvider>
        <RowsScreen />
      </LiveProvider>,
    );
    const socket = FakeSocket.all[0]!;
    socket.open();
    // No rows yet: task changes only, no device states at all.
    expect(socket.sent).toEqual([{ type: 'subscribe', topics: { tasks: true } }]);
    socket.receive({ type: 'hello', data: { offlineAfterMs: 600_000 } });
    expect(refreshes).toBe(0);
    act(() => setRows(['d2', 'd1']));
    expect(socket.sent.at(-1)).toEqual({ type: 'subscribe', id: 1, topics: { states: { devices: ['d1', 'd2'] }, tasks: true } });
    // The same rows in a new array subscribe nothing new; other rows do.
    act(() => setRows(['d2', 'd1']));
    expect(socket.sent).toHaveLength(2);
    act(() => setRows(['d3']));
    expect(socket.sent.at(-1)).toEqual({ type: 'subscribe', id: 2, topics: { states: { devices: ['d3'] }, tasks: true } });
    expect(FakeSocket.all).toHaveLength(1);

    // Once the new rows' subscription is in force the screen reads them again (reports may have gone by).
    socket.receive({ type: 'subscribed', data: { id: 2 } });
    expect(refreshes).toBe(1);
    act(() => vi.advanceTimersByTime(1000));
    const before = refreshes;
    socket.receive({ type: 'device-states', data: [{ id: 'd3' }] });
    expect(refreshes).toBe(before + 1);
    // A burst within a second is one more re-read, at its end.
    socket.receive({ type: 'device-states', data: [{ id: 'd3' }] });
    socket.receive({ type: 'task-changes', data: [{ id: 't1', orgId: 'o', status: 'arrived' }] });
    expect(refreshes).toBe(before + 1);
    act(() => vi.advanceTimersByTime(1000));
    expect(refreshes).toBe(before + 2);
    act(() => vi.advanceTimersByTime(5000));
    socket.receive({ type: 'task-changes', data: [{ id: 't2', orgId: 'o', status: 'completed' }] });
    expect(refreshes).toBe(before + 3);
  });
});
