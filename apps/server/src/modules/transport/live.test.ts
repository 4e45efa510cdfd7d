// Transport task changes on the browsers' live channel, through the whole application: creating,
// editing, moving (by hand and by the recogniser) a task reaches the sockets subscribed to tasks
// of users of its organisation, never another organisation's, nor a socket not subscribed to
// tasks. Each "nothing arrived" is proven by a later change of the receiving socket's own
// organisation arriving first (changes go out in order on each socket).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceWithSecret } from '@iotc/shared/device';
import type { TaskChange } from '@iotc/shared/live';
import type { TaskDetail } from '@iotc/shared/transport';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { createTenantUser } from '../../test/fixtures.ts';
import { openLive, until, type LiveSocket } from '../../test/live-socket.ts';

const TASKS = '/api/iot/v2/transport-tasks';
const PERMISSIONS = ['device:read', 'device:write', 'transport:read', 'transport:write'];
let t: TestApp;
let base: string;
const token = { a: '', b: '' };
const org = { a: '', b: '' };

beforeAll(async () => {
  t = await testApp();
  const db = t.app.database.db;
  for (const key of ['a', 'b'] as const) {
    const { org: o } = await createTenantUser(db, { code: `live-tasks-${key}`, account: `live-tasks-${key}`, password: DEMO_PASSWORD, permissions: PERMISSIONS });
    org[key] = o.id;
    token[key] = await login(t.app, `live-tasks-${key}`, DEMO_PASSWORD);
  }
  base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
});
afterAll(async () => {
  await t.close();
});

let deviceNo = 0;
async function task(accessToken: string): Promise<TaskDetail> {
  const deviceId = `LT${String(++deviceNo).padStart(8, '0')}`;
  const device = await call<DeviceWithSecret>(t.app, { method: 'POST', url: '/api/iot/v2/devices', token: accessToken, body: { deviceId, name: `Tracker ${deviceNo}` } });
  expect(device.status, JSON.stringify(device.body)).toBe(200);
  const body = {
    goodsName: 'Vaccines',
    deviceIds: [device.body.data!.id],
    origin: { name: 'Shanghai DC', lat: 31.2, lon: 121.5, radiusM: 500 },
    destination: { name: 'Hangzhou Store', lat: 30.27, lon: 120.15, radiusM: 800 },
  };
  const res = await call<TaskDetail>(t.app, { method: 'POST', url: TASKS, token: accessToken, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}
async function move(accessToken: string, id: string, to: string) {
  const res = await call<TaskDetail>(t.app, { method: 'POST', url: `${TASKS}/${id}/transition`, token: accessToken, body: { to, note: to === 'cancelled' ? 'not needed' : '' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function subscribed(accessToken: string, topics: object): Promise<LiveSocket> {
  const s = await openLive(base, accessToken);
  s.ws.send(JSON.stringify({ type: 'subscribe', id: 1, topics }));
  expect(await until(() => s.messages.some((m) => m.type === 'hello'))).toBe(true);
  return s;
}
const changesOf = (s: LiveSocket): TaskChange[] => s.messages.flatMap((m) => (m.type === 'task-changes' ? m.data : []));
const has = (s: LiveSocket, id: string, status: string) => changesOf(s).some((c) => c.id === id && c.status === status);

describe('transport task changes on the live channel', () => {
  it("sends a task's creation, edit and moves to its organisation's sockets subscribed to tasks, and to no other", async () => {
    const a = await subscribed(token.a, { tasks: true });
    const b = await subscribed(token.b, { tasks: true });
    const statesOnly = await subscribed(token.a, { states: true, alarms: true });

    const mine = await task(token.a);
    expect(await until(() => has(a, mine.id, 'pending'))).toBe(true);
    const edit = await call<TaskDetail>(t.app, {
      method: 'PUT',
      url: `${TASKS}/${mine.id}`,
      token: token.a,
      body: { goodsName: 'Insulin', deviceIds: mine.devices.map((d) => d.id), origin: mine.origin, destination: mine.destination },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(await until(() => changesOf(a).filter((c) => c.id === mine.id).length === 2)).toBe(true);
    await move(token.a, mine.id, 'in_transit');
    expect(await until(() => has(a, mine.id, 'in_transit'))).toBe(true);
    // The recogniser's arrival goes out like a move by hand (the plugin gives it the same service).
    expect(await t.app.transportTasks.recognised(mine.id, 'arrived', new Date())).toBe(true);
    expect(await until(() => has(a, mine.id, 'arrived'))).toBe(true);
    await move(token.a, mine.id, 'completed');
    expect(await until(() => has(a, mine.id, 'completed'))).toBe(true);
    expect(changesOf(a).every((c) => c.orgId === org.a)).toBe(true);

    // B's own task arriving at B's socket proves none of A's went there before it.
    const theirs = await task(token.b);
    expect(await until(() => has(b, theirs.id, 'pending'))).toBe(true);
    expect(changesOf(b).map((c) => c.id)).toEqual([theirs.id]);
    // ... and A's socket had B's task too by then if it were sent to it: one more change of A's, then look.
    const later = await task(token.a);
    expect(await until(() => has(a, later.id, 'pending'))).toBe(true);
    expect(changesOf(a).map((c) => c.id)).not.toContain(theirs.id);

    // The socket not subscribed to tasks got none (each change went to every socket in the same turn as to A's).
    expect(statesOnly.messages.filter((m) => m.type === 'task-changes')).toEqual([]);
    for (const s of [a, b, statesOnly]) s.ws.close();
  });
});
