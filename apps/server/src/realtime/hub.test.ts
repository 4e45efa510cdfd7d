// The live hub's scoping: each socket receives only its user's organisation tree's device states
// and alarms, and of those only what it subscribed to. Events go through a real bus into a real hub, whose sockets are admitted by the real
// sign-in service over the test database; each "nothing arrived" is proven by a later event of
// the receiving socket's own organisation arriving first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import type { AlarmRow } from '@iotc/shared/alarm';
import type { DeviceState, TaskChange } from '@iotc/shared/live';
import { DEMO_PASSWORD, login, testApp, type TestApp } from '../test/harness.ts';
import { createTenantUser } from '../test/fixtures.ts';
import { orgs, users } from '../db/schema.ts';
import { localBus, type EventBus } from './bus.ts';
import { liveHub } from './hub.ts';
import { openLive, until, type LiveSocket } from '../test/live-socket.ts';

let t: TestApp;
let hubApp: FastifyInstance;
let bus: EventBus;
let base: string;
const org: Record<'a' | 'b' | 'child' | 'noAlarms', string> = { a: '', b: '', child: '', noAlarms: '' };
const token: Record<'a' | 'b' | 'child' | 'noAlarms' | 'noDevices', string> = { a: '', b: '', child: '', noAlarms: '', noDevices: '' };

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  const tenant = async (key: string, permissions: string[], parent?: string) => {
    const { org: o } = await createTenantUser(db, { code: `hub-${key}`, account: `hub-${key}`, password: DEMO_PASSWORD, permissions });
    if (parent) await db.update(orgs).set({ parentId: parent }).where(eq(orgs.id, o.id));
    return { id: o.id, token: await login(t.app, `hub-${key}`, DEMO_PASSWORD) };
  };
  const a = await tenant('a', ['device:read', 'alarm:read', 'transport:read']);
  const b = await tenant('b', ['device:read', 'alarm:read', 'transport:read']);
  // A's child organisation, and another child whose user reads devices but not alarms (nor tasks).
  const child = await tenant('child', ['device:read', 'alarm:read', 'transport:read'], a.id);
  const noAlarms = await tenant('no-alarms', ['device:read'], a.id);
  const noDevices = await tenant('no-devices', ['alarm:read']);
  Object.assign(org, { a: a.id, b: b.id, child: child.id, noAlarms: noAlarms.id });
  Object.assign(token, { a: a.token, b: b.token, child: child.token, noAlarms: noAlarms.token, noDevices: noDevices.token });

  bus = localBus();
  hubApp = Fastify();
  await liveHub(hubApp, { db, auth: t.app.authService, bus, offlineAfterMs: 600_000 });
  base = (await hubApp.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
});
afterAll(async () => {
  await hubApp?.close();
  await bus?.close();
  await t.close();
});

type Socket = LiveSocket;

const open = (accessToken: string): Promise<Socket> => openLive(base, accessToken);

/** Opens a socket and waits for its hello (it is admitted: events from now on are for it). */
async function admitted(accessToken: string) {
  const s = await open(accessToken);
  expect(await until(() => s.messages.some((m) => m.type === 'hello'))).toBe(true);
  return s;
}

let seq = 0;
/** A device state of an organisation (the hub reads its id and organisation only). */
const state = (orgId: string) => ({ id: `state-${++seq}`, orgId, deviceId: `D${seq}` }) as unknown as DeviceState;
const alarm = (orgId: string) => ({ id: `alarm-${++seq}`, orgId }) as unknown as AlarmRow;
const statesOf = (s: Socket) => s.messages.flatMap((m) => (m.type === 'device-states' ? m.data.map((d) => d.id) : []));
const task = (orgId: string): TaskChange => ({ id: `task-${++seq}`, orgId, status: 'in_transit' });
const tasksOf = (s: Socket) => s.messages.flatMap((m) => (m.type === 'task-changes' ? m.data.map((d) => d.id ?? `org:${d.orgId}`) : []));
const alarmsOf = (s: Socket) => s.messages.flatMap((m) => (m.type === 'alarms' ? m.data.map((d) => d.id) : []));

describe('live hub scoping', () => {
  it("sends an organisation's device states and alarms to its own sockets and never to another organisation's", async () => {
    const a = await admitted(token.a);
    const b = await admitted(token.b);
    const [sa, aa] = [state(org.a), alarm(org.a)];
    bus.publish({ type: 'device-states', states: [sa] });
    bus.publish({ type: 'alarms', alarms: [aa] });
    // Later events of B: once they are at B's socket, anything of A's would have been too.
    const [sb, ab] = [state(org.b), alarm(org.b)];
    bus.publish({ type: 'alarms', alarms: [ab] });
    bus.publish({ type: 'device-states', states: [sb] });
    expect(await until(() => statesOf(b).includes(sb.id) && alarmsOf(b).includes(ab.id))).toBe(true);
    expect(await until(() => statesOf(a).includes(sa.id) && alarmsOf(a).includes(aa.id))).toBe(true);
    expect(statesOf(b)).toEqual([sb.id]);
    expect(alarmsOf(b)).toEqual([ab.id]);
    expect(statesOf(a)).toEqual([sa.id]);
    expect(alarmsOf(a)).toEqual([aa.id]);
    a.ws.close();
    b.ws.close();
  });

  it("sends a child organisation's events to the parent's users, and not the parent's to the child's", async () => {
    const a = await admitted(token.a);
    const child = await admitted(token.child);
    const b = await admitted(token.b);
    const [sc, ac] = [state(org.child), alarm(org.child)];
    bus.publish({ type: 'device-states', states: [sc] });
    bus.publish({ type: 'alarms', alarms: [ac] });
    const [sa, aa] = [state(org.a), alarm(org.a)];
    bus.publish({ type: 'device-states', states: [sa] });
    bus.publish({ type: 'alarms', alarms: [aa] });
    // The child's own later event proves the parent's did not follow.
    const sc2 = state(org.child);
    const sb = state(org.b);
    bus.publish({ type: 'device-states', states: [sc2, sb] });
    expect(await until(() => statesOf(a).includes(sc.id) && statesOf(a).includes(sa.id) && alarmsOf(a).includes(ac.id) && alarmsOf(a).includes(aa.id))).toBe(true);
    expect(await until(() => statesOf(child).includes(sc2.id) && statesOf(b).includes(sb.id))).toBe(true);
    expect(statesOf(child).sort()).toEqual([sc.id, sc2.id].sort());
    expect(alarmsOf(child)).toEqual([ac.id]);
    expect(statesOf(b)).toEqual([sb.id]);
    expect(alarmsOf(b)).toEqual([]);
    expect(statesOf(a)).not.toContain(sb.id);
    for (const s of [a, child, b]) s.ws.close();
  });

  it('sends device states but no alarms to a user without alarm:read', async () => {
    const s = await admitted(token.noAlarms);
    const al = alarm(org.noAlarms);
    bus.publish({ type: 'alarms', alarms: [al] });
    const st = state(org.noAlarms);
    bus.publish({ type: 'device-states', states: [st] });
    // Alarms go out on the next turn, states at the next flush: the state arriving proves the alarm was held back.
    expect(await until(() => statesOf(s).includes(st.id))).toBe(true);
    expect(alarmsOf(s)).toEqual([]);
    s.ws.close();
  });

  it('sends a socket subscribed to alarms only no device states, even when it subscribed before its admission', async () => {
    const control = await admitted(token.a);
    const s = await open(token.a);
    s.ws.send(JSON.stringify({ type: 'subscribe', topics: { alarms: true } }));
    expect(await until(() => s.messages.some((m) => m.type === 'hello'))).toBe(true);
    const st = state(org.a);
    bus.publish({ type: 'device-states', states: [st] });
    expect(await until(() => statesOf(control).includes(st.id))).toBe(true);
    // The alarm goes out after the flush that carried the state: on the same socket it arrives later.
    const al = alarm(org.a);
    bus.publish({ type: 'alarms', alarms: [al] });
    expect(await until(() => alarmsOf(s).includes(al.id))).toBe(true);
    expect(statesOf(s)).toEqual([]);
    expect(s.messages.filter((m) => m.type === 'device-states')).toEqual([]);
    for (const x of [s, control]) x.ws.close();
  });

  it("sends a subscription limited to devices only those devices' states, never another organisation's, and no alarms", async () => {
    const s = await admitted(token.a);
    const [mine, other, foreign] = [state(org.a), state(org.a), state(org.b)];
    s.ws.send(JSON.stringify({ type: 'subscribe', id: 7, topics: { states: { devices: [mine.id, foreign.id] } } }));
    expect(await until(() => s.messages.some((m) => m.type === 'subscribed' && m.data.id === 7))).toBe(true);
    bus.publish({ type: 'alarms', alarms: [alarm(org.a)] });
    bus.publish({ type: 'device-states', states: [mine, other, foreign] });
    expect(await until(() => statesOf(s).includes(mine.id))).toBe(true);
    // One flush carried all three; later states of the same socket's subscription prove nothing else followed.
    const again = { ...mine, deviceId: 'again' };
    bus.publish({ type: 'device-states', states: [other, foreign, again] });
    expect(await until(() => s.messages.filter((m) => m.type === 'device-states').length === 2)).toBe(true);
    expect(statesOf(s)).toEqual([mine.id, mine.id]);
    expect(alarmsOf(s)).toEqual([]);

    // Widened to every device of the caller's organisations: the other device arrives, the foreign one still not.
    s.ws.send(JSON.stringify({ type: 'subscribe', id: 8, topics: { states: true } }));
    expect(await until(() => s.messages.some((m) => m.type === 'subscribed' && m.data.id === 8))).toBe(true);
    bus.publish({ type: 'device-states', states: [other, foreign] });
    expect(await until(() => statesOf(s).includes(other.id))).toBe(true);
    expect(statesOf(s)).not.toContain(foreign.id);
    s.ws.close();
  });

  it("sends task changes to sockets subscribed to tasks, of their own organisation tree only, and to no other socket", async () => {
    const subscribe = async (accessToken: string, topics: object) => {
      const s = await admitted(accessToken);
      s.ws.send(JSON.stringify({ type: 'subscribe', id: 1, topics }));
      expect(await until(() => s.messages.some((m) => m.type === 'subscribed'))).toBe(true);
      return s;
    };
    const a = await subscribe(token.a, { tasks: true });
    const b = await subscribe(token.b, { tasks: true });
    const alarmsOnly = await subscribe(token.a, { alarms: true });
    // Subscribed, but the user may not read transport tasks.
    const noPermission = await subscribe(token.noAlarms, { tasks: true, states: true });
    const [ta, tb, tc] = [task(org.a), task(org.b), task(org.child)];
    bus.publish({ type: 'task-changes', changes: [ta, tb, tc] });
    const imported: TaskChange = { id: null, orgId: org.a, status: null };
    bus.publish({ type: 'task-changes', changes: [imported] });
    expect(await until(() => tasksOf(a).length === 3 && tasksOf(b).length === 1)).toBe(true);
    expect(tasksOf(a).sort()).toEqual([ta.id, tc.id, `org:${org.a}`].sort());
    expect(tasksOf(b)).toEqual([tb.id]);
    // Later alarms and states of their own, sent after the task changes, prove no task change reached the others.
    const al = alarm(org.a);
    bus.publish({ type: 'alarms', alarms: [al] });
    const st = state(org.noAlarms);
    bus.publish({ type: 'device-states', states: [st] });
    expect(await until(() => alarmsOf(alarmsOnly).includes(al.id) && statesOf(noPermission).includes(st.id))).toBe(true);
    expect(tasksOf(alarmsOnly)).toEqual([]);
    expect(tasksOf(noPermission)).toEqual([]);
    for (const s of [a, b, alarmsOnly, noPermission]) s.ws.close();
  });

  it('closes a socket that sends a malformed subscription with 4400 and keeps serving the others', async () => {
    const bad = ['not json', JSON.stringify({ type: 'unsubscribe' }), JSON.stringify({ type: 'subscribe', topics: { states: 'all' } }), JSON.stringify({ type: 'subscribe', topics: { states: { devices: 'x' } } })];
    for (const text of bad) {
      const s = await admitted(token.a);
      s.ws.send(text);
      expect(await s.closed).toBe(4400);
    }
    // Before its admission too.
    const early = await open(token.a);
    early.ws.send('{');
    expect(await early.closed).toBe(4400);
    const ok = await admitted(token.a);
    const st = state(org.a);
    bus.publish({ type: 'device-states', states: [st] });
    expect(await until(() => statesOf(ok).includes(st.id))).toBe(true);
    ok.ws.close();
  });

  it("sends inbox news to its user's sockets only, not to another user of the tree, nor to a socket that subscribed without it", async () => {
    const userOf = async (account: string) => (await t.app.database.db.select({ id: users.id }).from(users).where(eq(users.account, account)))[0]!.id;
    const [aUser, childUser] = [await userOf('hub-a'), await userOf('hub-child')];
    const a = await admitted(token.a);
    const a2 = await admitted(token.a);
    const child = await admitted(token.child);
    const quiet = await admitted(token.a);
    quiet.ws.send(JSON.stringify({ type: 'subscribe', id: 7, topics: { alarms: true } }));
    expect(await until(() => quiet.messages.some((m) => m.type === 'subscribed'))).toBe(true);
    bus.publish({ type: 'inbox', userIds: [aUser] });
    const inbox = (s: Socket) => s.messages.filter((m) => m.type === 'inbox').length;
    expect(await until(() => inbox(a) === 1 && inbox(a2) === 1)).toBe(true);
    // Later news of the child's user: once at its socket, A's would have been too.
    bus.publish({ type: 'inbox', userIds: [childUser] });
    expect(await until(() => inbox(child) === 1)).toBe(true);
    const al = alarm(org.a);
    bus.publish({ type: 'alarms', alarms: [al] });
    expect(await until(() => alarmsOf(quiet).includes(al.id))).toBe(true);
    expect([inbox(a), inbox(quiet)]).toEqual([1, 0]);
    for (const s of [a, a2, child, quiet]) s.ws.close();
  });

  it('closes a socket without a valid session with 4401, and one without device:read with 4403', async () => {
    expect(await (await open('nonsense')).closed).toBe(4401);
    expect(await (await open('')).closed).toBe(4401);
    expect(await (await open(token.noDevices)).closed).toBe(4403);
  });

  it('refuses a socket whose token has been signed out', async () => {
    const fresh = await login(t.app, 'hub-b', DEMO_PASSWORD);
    (await admitted(fresh)).ws.close();
    await t.app.inject({ method: 'GET', url: '/iot-cloud-auth/auth/v1/logout', headers: { access_token: fresh } });
    expect(await (await open(fresh)).closed).toBe(4401);
  });
});
