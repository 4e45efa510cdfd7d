// The browser's live channel (DESIGN.md "live push"): one WebSocket per tab to /api/iot/v2/live,
// authenticated by the access token in the query (browsers cannot set headers on a WebSocket).
// It reconnects with back-off (1 s, 2 s, 5 s, then every 10 s) unless the server closed it for
// an invalid session (4401), a missing permission (4403) or a message it refused (4400), and
// closes when no screen uses it any more or, before the token goes, when the user logs out.
// LiveConnection is plain TypeScript (its socket and timers can be replaced in tests); LiveTab
// shares one connection among the screens mounted in the tab: it subscribes the union of what
// they ask for (device states, alarms, transport task changes) and hands each what it asked for.
// useLiveStates, useLiveAlarms, useLiveTasks and useLiveInbox are the React side that screens use, through the
// tab's LiveTab (LiveProvider).
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import type { AlarmRow } from '@iotc/shared/alarm';
import {
  CLOSE_BAD_MESSAGE,
  CLOSE_FORBIDDEN,
  CLOSE_UNAUTHORISED,
  LIVE_API,
  LIVE_MAX_DEVICES,
  type DeviceState,
  type LiveMessage,
  type LiveSubscribe,
  type LiveTopics,
  type TaskChange,
} from '@iotc/shared/live';
import { getToken, onSessionEnd } from './session.ts';

export { CLOSE_FORBIDDEN, CLOSE_UNAUTHORISED };
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
  return code !== CLOSE_UNAUTHORISED && code !== CLOSE_FORBIDDEN && code !== CLOSE_BAD_MESSAGE;
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
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface LiveConnectionOptions {
  onStates: (states: DeviceState[]) => void;
  /** What to subscribe each socket to as it opens; none: everything the user may read. */
  topics?: () => LiveTopics | undefined;
  /** The server put subscription `id` (of subscribe()) in force. */
  onSubscribed?: (id: number) => void;
  /** Alarms opened, changed or ended (sent only to users who may read alarms). */
  onAlarms?: (alarms: AlarmRow[]) => void;
  /** Transport tasks created, edited or moved (sent only to users who may read them). */
  onTasks?: (changes: TaskChange[]) => void;
  /** Something arrived in the user's inbox (or was marked read in another tab). */
  onInbox?: () => void;
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
  /** The socket is open: a subscription can be sent now (otherwise it goes when it opens). */
  private opened = false;
  private lastId = 0;
  private timer: unknown = undefined;
  private attempt = 0;
  private stopping = false;
  private unsubscribe: (() => void) | undefined;
  status: LiveStatus = 'connecting';
  closeCode: number | undefined;

  constructor(opts: LiveConnectionOptions) {
    this.opts = opts;
  }

  start(): void {
    this.stopping = false;
    // A deliberate logout closes the socket at once, not when the server drops it for the revoked token.
    this.unsubscribe ??= onSessionEnd(() => this.stop());
    this.connect();
  }

  get stopped(): boolean {
    return this.stopping;
  }

  /**
   * Replaces the subscription of the open socket and answers the id the server acknowledges it
   * with ('subscribed'); undefined when no socket is open (the next one subscribes as it opens,
   * and its hello acknowledges it).
   */
  subscribe(topics: LiveTopics): number | undefined {
    if (!this.socket || !this.opened) return undefined;
    this.lastId += 1;
    this.post({ type: 'subscribe', id: this.lastId, topics });
    return this.lastId;
  }

  private post(msg: LiveSubscribe): void {
    try {
      this.socket?.send(JSON.stringify(msg));
    } catch {
      // A socket closing under us: its close event decides what happens next.
    }
  }

  /** Closes the socket for good (the screen went away, or the user logged out). */
  stop(): void {
    this.stopping = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.cancelTimer();
    const socket = this.socket;
    this.socket = null;
    this.opened = false;
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
    if (this.stopping) return;
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
    this.opened = false;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.opened = true;
      const topics = this.opts.topics?.();
      if (topics) this.post({ type: 'subscribe', topics });
    };
    socket.onmessage = (ev) => this.message(ev.data);
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.opened = false;
      if (this.stopping) return;
      if (shouldReconnect(ev.code)) this.retry();
      else this.setStatus('closed', ev.code);
    };
    // An error is always followed by a close, which decides what happens next.
    socket.onerror = () => undefined;
  }

  private retry(): void {
    if (this.stopping) return;
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
    } else if (msg.type === 'task-changes' && Array.isArray(msg.data)) {
      this.opts.onTasks?.(msg.data);
    } else if (msg.type === 'inbox') {
      this.opts.onInbox?.();
    } else if (msg.type === 'subscribed' && typeof msg.data?.id === 'number') {
      this.opts.onSubscribed?.(msg.data.id);
    }
  }
}


/** What one screen (a hook) asks of the tab's connection, and where it wants it. */
export interface LiveSubscriber {
  /** Device states: of every device the user may read, or of these device row ids. */
  states?: true | readonly string[];
  alarms?: boolean;
  tasks?: boolean;
  inbox?: boolean;
  onStates?: (states: DeviceState[]) => void;
  onAlarms?: (alarms: AlarmRow[]) => void;
  onTasks?: (changes: TaskChange[]) => void;
  onInbox?: () => void;
  /**
   * Events the subscriber asked for flow from now on: anything it read before may be stale.
   * Called at each (re)connection, and once when it joins a connection already open.
   */
  onHello?: (data: { offlineAfterMs: number }) => void;
  onStatus?: (status: LiveStatus, closeCode?: number) => void;
}

/** The connection options a LiveTab passes on (its socket and timers, for tests). */
export type LiveTabOptions = Pick<LiveConnectionOptions, 'token' | 'socket' | 'url' | 'setTimer' | 'clearTimer'>;

/**
 * The tab's one live connection, shared by the screens mounted in it: it opens with the first
 * subscriber and closes when the last one leaves; its subscription is the union of theirs, sent
 * again as it changes and as each new socket opens; each subscriber gets only what it asked for.
 */
export class LiveTab {
  private readonly opts: LiveTabOptions;
  private readonly subscribers = new Map<LiveSubscriber, Set<string> | null>();
  private connection: LiveConnection | null = null;
  /** The greeting of the socket now admitted (none while connecting). */
  private hello: { offlineAfterMs: number } | undefined;
  /** Joined an admitted socket with a wider subscription: greeted when the server acknowledges it. */
  private readonly awaiting = new Map<LiveSubscriber, number>();
  private sent = '';

  constructor(opts: LiveTabOptions = {}) {
    this.opts = opts;
  }

  /** Sockets opened so far and not stopped: at most one. */
  get connected(): boolean {
    return this.connection !== null && !this.connection.stopped;
  }

  /** The union of the subscribers' topics (every device once more than LIVE_MAX_DEVICES are named). */
  topics(): LiveTopics {
    let all = false;
    let alarms = false;
    let tasks = false;
    let inbox = false;
    const devices = new Set<string>();
    for (const s of this.subscribers.keys()) {
      if (s.states === true) all = true;
      else if (s.states) for (const d of s.states) devices.add(d);
      if (s.alarms) alarms = true;
      if (s.tasks) tasks = true;
      if (s.inbox) inbox = true;
    }
    const topics: LiveTopics = {};
    if (all || devices.size > LIVE_MAX_DEVICES) topics.states = true;
    else if (devices.size) topics.states = { devices: [...devices].sort() };
    if (alarms) topics.alarms = true;
    if (tasks) topics.tasks = true;
    if (inbox) topics.inbox = true;
    return topics;
  }

  /** Adds a subscriber; answers the function that removes it. */
  subscribe(sub: LiveSubscriber): () => void {
    this.subscribers.set(sub, Array.isArray(sub.states) ? new Set(sub.states) : null);
    if (!this.connection || this.connection.stopped) {
      // The first subscriber, or the first after a logout stopped the connection.
      this.hello = undefined;
      this.awaiting.clear();
      this.sent = JSON.stringify(this.topics());
      this.connection = new LiveConnection({
        ...this.opts,
        topics: () => {
          const topics = this.topics();
          this.sent = JSON.stringify(topics);
          return topics;
        },
        onStates: (states) => this.fanStates(states),
        onAlarms: (alarms) => this.fanAlarms(alarms),
        onTasks: (changes) => this.fanTasks(changes),
        onInbox: () => this.fanInbox(),
        onHello: (data) => this.greetAll(data),
        onSubscribed: (id) => this.acknowledged(id),
        onStatus: (status, code) => {
          if (status !== 'open') {
            this.hello = undefined;
            this.awaiting.clear();
          }
          for (const s of [...this.subscribers.keys()]) s.onStatus?.(status, code);
        },
      });
      this.connection.start();
    } else {
      sub.onStatus?.(this.connection.status, this.connection.closeCode);
      const id = this.update();
      if (this.hello) {
        if (id === undefined) sub.onHello?.(this.hello);
        else this.awaiting.set(sub, id);
      }
    }
    return () => {
      if (!this.subscribers.delete(sub)) return;
      this.awaiting.delete(sub);
      if (this.subscribers.size === 0) {
        this.connection?.stop();
        this.connection = null;
        this.hello = undefined;
        this.awaiting.clear();
      } else this.update();
    };
  }

  /**
   * Changes the device states a subscriber wants, on the same socket (a screen's rows changed);
   * once the server has the new subscription in force the subscriber is greeted again, since
   * states of devices it did not want before may have gone by.
   */
  changeStates(sub: LiveSubscriber, states: true | readonly string[] | undefined): void {
    if (!this.subscribers.has(sub)) return;
    sub.states = states;
    this.subscribers.set(sub, Array.isArray(states) ? new Set(states) : null);
    const id = this.update();
    if (id !== undefined && this.hello) this.awaiting.set(sub, id);
  }

  /** Sends the union when it changed; answers the id the server will acknowledge it with. */
  private update(): number | undefined {
    const topics = this.topics();
    const key = JSON.stringify(topics);
    if (key === this.sent || !this.connection) return undefined;
    this.sent = key;
    return this.connection.subscribe(topics);
  }

  private greetAll(data: { offlineAfterMs: number }): void {
    this.hello = data;
    this.awaiting.clear();
    for (const s of [...this.subscribers.keys()]) s.onHello?.(data);
  }

  private acknowledged(id: number): void {
    const hello = this.hello;
    if (!hello) return;
    for (const [s, wanted] of [...this.awaiting]) {
      if (wanted > id) continue;
      this.awaiting.delete(s);
      s.onHello?.(hello);
    }
  }

  private fanStates(states: DeviceState[]): void {
    for (const [s, devices] of [...this.subscribers]) {
      if (!s.states || !s.onStates) continue;
      const mine = devices ? states.filter((st) => devices.has(st.id)) : states;
      if (mine.length) s.onStates(mine);
    }
  }

  private fanAlarms(alarms: AlarmRow[]): void {
    for (const s of [...this.subscribers.keys()]) if (s.alarms) s.onAlarms?.(alarms);
  }

  private fanTasks(changes: TaskChange[]): void {
    for (const s of [...this.subscribers.keys()]) if (s.tasks) s.onTasks?.(changes);
  }

  private fanInbox(): void {
    for (const s of [...this.subscribers.keys()]) if (s.inbox) s.onInbox?.();
  }
}

/** The tab's live connection; LiveProvider (app/providers.tsx) gives the app its own. */
export const LiveContext = createContext<LiveTab>(new LiveTab());

export interface LiveChannel {
  status: LiveStatus;
  /** The close code that ended the channel ('closed'): 4401 session, 4403 permission. */
  closeCode?: number;
}

interface LiveHandlers {
  onStates?: (states: DeviceState[]) => void;
  onAlarms?: (alarms: AlarmRow[]) => void;
  onTasks?: (changes: TaskChange[]) => void;
  onInbox?: () => void;
  onHello?: (data: { offlineAfterMs: number }) => void;
}

interface Wanted {
  states?: true | readonly string[];
  alarms?: boolean;
  tasks?: boolean;
  inbox?: boolean;
}

/** Subscribes the caller to the tab's connection while it is mounted (and enabled). */
function useLiveSubscription({ states, alarms = false, tasks = false, inbox = false }: Wanted, handlers: LiveHandlers, enabled: boolean): LiveChannel {
  const tab = useContext(LiveContext);
  const [channel, setChannel] = useState<LiveChannel>({ status: enabled ? 'connecting' : 'closed' });
  const current = useRef(handlers);
  useEffect(() => {
    current.current = handlers;
  });
  // A new list of devices (not a new array of the same ones) changes the subscription, on the same socket.
  const devicesKey = states === true || states === undefined ? String(states) : JSON.stringify(states);
  const wanted = (): true | readonly string[] | undefined => (devicesKey === 'true' ? true : devicesKey === 'undefined' ? undefined : (JSON.parse(devicesKey) as string[]));
  const subscriber = useRef<LiveSubscriber | null>(null);
  const firstStates = useRef(wanted);
  firstStates.current = wanted;
  useEffect(() => {
    if (subscriber.current) tab.changeStates(subscriber.current, wanted());
    // eslint-disable-next-line react-hooks/exhaustive-deps -- wanted() follows devicesKey
  }, [tab, devicesKey]);
  useEffect(() => {
    if (!enabled) return;
    const sub: LiveSubscriber = {
      states: firstStates.current(),
      alarms,
      tasks,
      inbox,
      onStates: (batch) => current.current.onStates?.(batch),
      onAlarms: (batch) => current.current.onAlarms?.(batch),
      onTasks: (batch) => current.current.onTasks?.(batch),
      onInbox: () => current.current.onInbox?.(),
      onHello: (data) => current.current.onHello?.(data),
      onStatus: (status, closeCode) => setChannel((c) => (c.status === status && c.closeCode === closeCode ? c : { status, closeCode })),
    };
    subscriber.current = sub;
    const leave = tab.subscribe(sub);
    return () => {
      subscriber.current = null;
      leave();
    };
  }, [tab, enabled, alarms, tasks, inbox]);
  return channel;
}

/**
 * Device states pushed by the server while the caller is mounted: of every device the user may
 * read, or only of `devices` (row ids). `onStates` gets each batch as it arrives (buffer it:
 * batches come every ~100 ms); `onHello` each (re)connection, after which the caller re-reads
 * what it shows. The latest callbacks are used without subscribing again.
 */
export function useLiveStates(
  onStates: (states: DeviceState[]) => void,
  onHello?: (data: { offlineAfterMs: number }) => void,
  devices?: readonly string[],
): LiveChannel {
  return useLiveSubscription({ states: devices ?? true }, { onStates, onHello }, true);
}

/**
 * Alarms pushed by the server while the caller is mounted (opened, repeated, acknowledged,
 * cleared, closed: the newest row of each). `onHello` each (re)connection, after which the
 * caller re-reads what it shows. Shares the tab's connection with useLiveStates.
 */
export function useLiveAlarms(onAlarms: (alarms: AlarmRow[]) => void, onHello?: () => void, enabled = true): LiveChannel {
  return useLiveSubscription({ alarms: true }, { onAlarms, onHello: onHello && (() => onHello()) }, enabled);
}

/**
 * Transport tasks created, edited or moved while the caller is mounted (by anyone, the
 * recogniser included): the screen reads again the rows it shows. `onHello` each
 * (re)connection, after which it reads again everything it shows.
 */
export function useLiveTasks(onTasks: (changes: TaskChange[]) => void, onHello?: () => void, enabled = true): LiveChannel {
  return useLiveSubscription({ tasks: true }, { onTasks, onHello: onHello && (() => onHello()) }, enabled);
}

/**
 * News of the signed-in user's inbox (an in-app alarm message arrived, or items were marked read
 * in another tab) while the caller is mounted; `onHello` each (re)connection, after which the
 * caller reads its count again (news may have gone by).
 */
export function useLiveInbox(onInbox: () => void, onHello?: () => void, enabled = true): LiveChannel {
  return useLiveSubscription({ inbox: true }, { onInbox, onHello: onHello && (() => onHello()) }, enabled);
}

/** What a screen re-reads on: changed transport tasks (all, or those `taskId` names) and states of some devices. */
export interface LiveRefreshTopics {
  /** Any task change (true), a change of this task (its id; an import counts too), or none. */
  tasks?: true | string;
  /** Device row ids whose states the screen shows (none or empty: no device states). */
  devices?: readonly string[];
  /** At most one re-read per this many ms (the first at once, the last of a burst at the end). */
  minMs?: number;
}

/**
 * For screens whose rows the server computes (a task's progress from its devices' positions):
 * `refresh` runs when the live channel reports a change of what they show, at most once per
 * `minMs`, and after each reconnection (which may have missed changes). The screen subscribes
 * only the devices it shows, so the hub does not send it the whole fleet.
 */
export function useLiveRefresh(refresh: () => void, { tasks, devices, minMs = 1000 }: LiveRefreshTopics): LiveChannel {
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  });
  const [throttle] = useState(() => {
    let last = -Infinity;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = () => {
      timer = undefined;
      last = Date.now();
      latest.current();
    };
    return {
      minMs,
      call() {
        if (timer !== undefined) return;
        const wait = last + this.minMs - Date.now();
        if (wait <= 0) run();
        else timer = setTimeout(run, wait);
      },
      cancel() {
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
      },
    };
  });
  throttle.minMs = minMs;
  useEffect(() => () => throttle.cancel(), [throttle]);
  const hellos = useRef(0);
  const handlers: LiveHandlers = {
    onTasks: (changes) => {
      if (tasks === true || changes.some((c) => c.id === tasks || c.id === null)) throttle.call();
    },
    onStates: () => throttle.call(),
    // The first greeting follows the screen's own first read; a later one follows a gap.
    onHello: () => {
      hellos.current += 1;
      if (hellos.current > 1) throttle.call();
    },
  };
  const states = devices && devices.length > 0 ? devices : undefined;
  return useLiveSubscription({ states, tasks: tasks !== undefined }, handlers, states !== undefined || tasks !== undefined);
}
