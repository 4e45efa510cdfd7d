// The browser's live channel (DESIGN.md "live push"): one WebSocket to /api/iot/v2/live,
// authenticated by the access token in the query (browsers cannot set headers on a WebSocket).
// It reconnects with back-off (1 s, 2 s, 5 s, then every 10 s) unless the server closed it for
// an invalid session (4401) or a missing permission (4403), and closes when its screen unmounts
// or, before the token goes, when the user logs out.
// LiveConnection is plain TypeScript (its socket and timers can be replaced in tests);
// useLiveStates is the React side that screens use.
import { useEffect, useRef, useState } from 'react';
import type { AlarmRow } from '@iotc/shared/alarm';
import { LIVE_API, type DeviceState, type LiveMessage } from '@iotc/shared/live';
import { getToken, onSessionEnd } from './session.ts';

/** Close codes after which reconnecting cannot help. */
export const CLOSE_UNAUTHORISED = 4401;
export const CLOSE_FORBIDDEN = 4403;
/** Waits before the 1st, 2nd, 3rd and every later reconnect. */
export const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10_000] as const;

/** 'connecting' also covers the wait before a reconnect; 'closed' is final. */
export type LiveStatus = 'connecting' | 'open' | 'closed';

/** The wait before reconnect number `attempt` (0-based). */
export function reconnectDelay(attempt: number): number {
  return RECONNECT_DELAYS_MS[Math.min(Math.max(attempt, 0), RECONNECT_DELAYS_MS.length - 1)]!;
}

/** Whether a socket closed with `code` should be opened again. */
export function shouldReconnect(code: number): boolean {
  return code !== CLOSE_UNAUTHORISED && code !== CLOSE_FORBIDDEN;
}

/** The channel's address on the page's own host (ws: or wss: after the page's scheme). */
export function liveUrl(token: string, loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}${LIVE_API.ws}?access_token=${encodeURIComponent(token)}`;
}

/** The part of the browser's WebSocket the connection uses. */
export interface SocketLike {
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  close(code?: number, reason?: string): void;
}

export interface LiveConnectionOptions {
  onStates: (states: DeviceState[]) => void;
  /** Alarms opened, changed or ended (sent only to users who may read alarms). */
  onAlarms?: (alarms: AlarmRow[]) => void;
  /** The server greeted a new connection: anything read before it may be stale. */
  onHello?: (data: { offlineAfterMs: number }) => void;
  onStatus?: (status: LiveStatus, closeCode?: number) => void;
  /** The token of each attempt; none means no attempt (closed). */
  token?: () => string | undefined;
  socket?: (url: string) => SocketLike;
  url?: (token: string) => string;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export class LiveConnection {
  private readonly opts: LiveConnectionOptions;
  private socket: SocketLike | null = null;
  private timer: unknown = undefined;
  private attempt = 0;
  private stopped = false;
  private unsubscribe: (() => void) | undefined;
  status: LiveStatus = 'connecting';
  closeCode: number | undefined;

  constructor(opts: LiveConnectionOptions) {
    this.opts = opts;
  }

  start(): void {
    this.stopped = false;
    // A deliberate logout closes the socket at once, not when the server drops it for the revoked token.
    this.unsubscribe ??= onSessionEnd(() => this.stop());
    this.connect();
  }

  /** Closes the socket for good (the screen went away, or the user logged out). */
  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.cancelTimer();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      socket.close(1000, 'done');
    }
  }

  private setStatus(status: LiveStatus, code?: number): void {
    this.status = status;
    this.closeCode = code;
    this.opts.onStatus?.(status, code);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) (this.opts.clearTimer ?? clearTimeout)(this.timer as ReturnType<typeof setTimeout>);
    this.timer = undefined;
  }

  private connect(): void {
    if (this.stopped) return;
    const token = (this.opts.token ?? getToken)();
    if (!token) {
      this.setStatus('closed', CLOSE_UNAUTHORISED);
      return;
    }
    this.setStatus('connecting');
    const url = (this.opts.url ?? liveUrl)(token);
    let socket: SocketLike;
    try {
      socket = (this.opts.socket ?? ((u: string) => new WebSocket(u)))(url);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.onmessage = (ev) => this.message(ev.data);
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      if (shouldReconnect(ev.code)) this.retry();
      else this.setStatus('closed', ev.code);
    };
    // An error is always followed by a close, which decides what happens next.
    socket.onerror = () => undefined;
  }

  private retry(): void {
    if (this.stopped) return;
    this.setStatus('connecting');
    const wait = reconnectDelay(this.attempt);
    this.attempt += 1;
    this.timer = (this.opts.setTimer ?? setTimeout)(() => {
      this.timer = undefined;
      this.connect();
    }, wait);
  }

  private message(data: unknown): void {
    if (typeof data !== 'string') return;
    let msg: LiveMessage;
    try {
      msg = JSON.parse(data) as LiveMessage;
    } catch {
      return;
    }
    if (msg.type === 'hello') {
      // Admitted: the next outage starts the back-off from the beginning again.
      this.attempt = 0;
      this.setStatus('open');
      this.opts.onHello?.(msg.data);
    } else if (msg.type === 'device-states' && Array.isArray(msg.data)) {
      this.opts.onStates(msg.data);
    } else if (msg.type === 'alarms' && Array.isArray(msg.data)) {
      this.opts.onAlarms?.(msg.data);
    }
  }
}

export interface LiveChannel {
  status: LiveStatus;
  /** The close code that ended the channel ('closed'): 4401 session, 4403 permission. */
  closeCode?: number;
}

/**
 * Device states pushed by the server while the caller is mounted. `onStates` gets each batch as
 * it arrives (buffer it: batches come every ~100 ms); `onHello` each (re)connection, after
 * which the caller re-reads what it shows. The latest callbacks are used without reconnecting.
 */
export function useLiveStates(onStates: (states: DeviceState[]) => void, onHello?: (data: { offlineAfterMs: number }) => void): LiveChannel {
  const [channel, setChannel] = useState<LiveChannel>({ status: 'connecting' });
  const handlers = useRef({ onStates, onHello });
  useEffect(() => {
    handlers.current = { onStates, onHello };
  }, [onStates, onHello]);

  useEffect(() => {
    const connection = new LiveConnection({
      onStates: (states) => handlers.current.onStates(states),
      onHello: (data) => handlers.current.onHello?.(data),
      onStatus: (status, closeCode) => setChannel((c) => (c.status === status && c.closeCode === closeCode ? c : { status, closeCode })),
    });
    connection.start();
    return () => connection.stop();
  }, []);

  return channel;
}

/**
 * Alarms pushed by the server while the caller is mounted (opened, repeated, acknowledged,
 * cleared, closed: the newest row of each). `onHello` each (re)connection, after which the
 * caller re-reads what it shows. One socket of its own, like useLiveStates.
 */
export function useLiveAlarms(onAlarms: (alarms: AlarmRow[]) => void, onHello?: () => void, enabled = true): LiveChannel {
  const [channel, setChannel] = useState<LiveChannel>({ status: enabled ? 'connecting' : 'closed' });
  const handlers = useRef({ onAlarms, onHello });
  useEffect(() => {
    handlers.current = { onAlarms, onHello };
  }, [onAlarms, onHello]);

  useEffect(() => {
    if (!enabled) return;
    const connection = new LiveConnection({
      onStates: () => undefined,
      onAlarms: (alarms) => handlers.current.onAlarms(alarms),
      onHello: () => handlers.current.onHello?.(),
      onStatus: (status, closeCode) => setChannel((c) => (c.status === status && c.closeCode === closeCode ? c : { status, closeCode })),
    });
    connection.start();
    return () => connection.stop();
  }, [enabled]);

  return channel;
}
