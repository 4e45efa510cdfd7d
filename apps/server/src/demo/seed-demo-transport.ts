// Transport tasks of the demo organisation, made from the simulated trucks' own timetables
// (apps/server/src/sim/shuttle.ts): a template per truck route, and for each truck the leg it
// drove last (completed, with the times it really left and arrived) and the leg it drives now
// or next (pending, planned while it stood at the origin). The current tasks are left to the
// recogniser: the past day's readings the demo stores next start them (and end those that get
// there), and the live simulator does the rest. Runs once, on a fresh database, before that.
import { and, eq, isNull } from 'drizzle-orm';
import type { TaskInput, TemplateInput } from '@iotc/shared/transport';
import { taskBodySchema, templateBodySchema } from '@iotc/shared/transport';
import type { Db } from '../db/client.ts';
import { alarmLevels, deviceBindings, transportTasks, users } from '../db/schema.ts';
import type { DemoDevice } from './seed-demo.ts';
import { createDevice, type SimDevice } from '../sim/models.ts';
import { shuttleAt } from '../sim/shuttle.ts';
import type { Route } from '../sim/routes.ts';
import type { TransportTaskService } from '../modules/transport/service.ts';
import type { TemplateService } from '../modules/transport/templates.ts';
import type { Caller } from '../lib/caller.ts';
import { addEvent } from '../modules/transport/repo.ts';
import { scopeOf } from '../db/list.ts';

const MINUTE = 60_000;
const META = { ip: null, userAgent: 'demo seed' };

const GOODS = [
  { goodsName: '新冠疫苗', goodsQuantity: 240, goodsUnit: '箱', goodsValue: 1_200_000, highValue: true, customer: '华东医药' },
  { goodsName: '鲜牛奶', goodsQuantity: 18, goodsUnit: '托', goodsValue: 86_000, highValue: false, customer: '光明乳业' },
  { goodsName: '速冻水饺', goodsQuantity: 22, goodsUnit: '托', goodsValue: 64_000, highValue: false, customer: '思念食品' },
  { goodsName: '胰岛素注射液', goodsQuantity: 120, goodsUnit: '箱', goodsValue: 2_350_000, highValue: true, customer: '上海第一人民医院' },
  { goodsName: '进口冷冻牛肉', goodsQuantity: 16, goodsUnit: '托', goodsValue: 420_000, highValue: true, customer: '盒马鲜生' },
  { goodsName: '血液制品', goodsQuantity: 60, goodsUnit: '箱', goodsValue: 980_000, highValue: true, customer: '华东医药' },
];

const end = (r: Route, forward: boolean) => (forward ? r.path[0]! : r.path[r.path.length - 1]!);
const cityOf = (name: string, first: boolean) => {
  // "Shanghai - Suzhou - ... - Nanjing (G42)": the first and the last city.
  const cities = name.replace(/\s*\(.*\)\s*$/, '').split(' - ');
  return (first ? cities[0] : cities[cities.length - 1])!.trim();
};

export async function seedDemoTransport(
  db: Db,
  deps: { tasks: TransportTaskService; templates: TemplateService },
  fleet: DemoDevice[],
  now = Date.now(),
): Promise<number> {
  const trucks = fleet.filter((d) => d.kind === 'vehicle');
  if (trucks.length === 0) return 0;
  const orgId = trucks[0]!.orgId;
  const [demo] = await db.select().from(users).where(eq(users.account, 'demo'));
  const [level] = await db.select().from(alarmLevels).where(and(eq(alarmLevels.orgId, orgId), eq(alarmLevels.code, 'important')));
  if (!demo || !level) return 0;
  const caller: Caller = { userId: demo.id, orgId, sessionId: 'demo-seed', account: demo.account, isPlatformAdmin: false, scope: await scopeOf(db, orgId), permissions: [] };

  const settings = (sim: SimDevice & { kind: 'vehicle' }, forward: boolean) => {
    const route = sim.route;
    const [oLat, oLon] = end(route, forward);
    const [dLat, dLon] = end(route, !forward);
    const path = forward ? route.path : [...route.path].reverse();
    const frozen = sim.setPointC < 0;
    return {
      origin: { name: `${cityOf(route.name, forward)} DC`, address: '', lat: oLat, lon: oLon, radiusM: 1000 },
      destination: { name: `${cityOf(route.name, !forward)} DC`, address: '', lat: dLat, lon: dLon, radiusM: 1000 },
      routeSource: 'drawn' as const,
      route: path.map(([lat, lon]) => [lat, lon] as [number, number]),
      tempMin: frozen ? -22 : 2,
      tempMax: frozen ? -15 : 8,
      humidityMin: null,
      humidityMax: null,
      alarm: { levelId: level.id, temperature: true, humidity: false, door: true, yawM: 3000, stayTimeoutS: 2 * 3600, overspeedKmh: null, durationS: 300 },
      // The demo trucks stop 5 to 20 minutes at each end: an arrival is 5 minutes there.
      detection: { auto: true, moveM: 200, moveS: 180, dwellS: 300 },
    };
  };

  // A template per route and direction the trucks drive.
  const templateIds = new Map<string, string>();
  let made = 0;
  for (const [i, d] of trucks.entries()) {
    const sim = createDevice({ deviceId: d.deviceId, kind: 'vehicle', profile: d.profile });
    if (sim.kind !== 'vehicle') continue;
    const s = sim.shuttle;
    const state = shuttleAt(s, now);
    const slot = s.legMs + s.maxStopMs;
    const goods = GOODS[i % GOODS.length]!;
    const [binding] = await db.select({ assetRef: deviceBindings.assetRef }).from(deviceBindings).where(and(eq(deviceBindings.deviceRef, d.id), isNull(deviceBindings.unboundAt)));
    const assetId = binding?.assetRef ?? null;
    const forwardOf = (leg: number) => ((leg % 2) + 2) % 2 === 0;

    const key = `${sim.route.id}|${forwardOf(state.leg)}`;
    if (!templateIds.has(key)) {
      const base = settings(sim, forwardOf(state.leg));
      const body: TemplateInput = { name: `${base.origin.name} → ${base.destination.name}${sim.setPointC < 0 ? '（冷冻）' : '（冷藏）'}`, description: sim.route.name, ...base };
      const row = await deps.templates.create(caller, templateBodySchema.parse(body), META);
      templateIds.set(key, row.id);
    }

    // The leg driven last: left its origin at the end of the stop of slot leg-1, got to the
    // destination when slot `leg` began.
    const prev = shuttleAt(s, state.stopStartMs - slot / 2);
    const left = prev.stopEndMs;
    const arrived = state.stopStartMs;
    const done: TaskInput = {
      ...goods,
      ...settings(sim, forwardOf(state.leg - 1)),
      deviceIds: [d.id],
      assetId,
      driverName: ['王伟', '李强', '张敏', '刘洋', '陈杰', '杨帆', '赵磊', '黄涛'][i % 8]!,
      plannedStart: new Date(left - 10 * MINUTE).toISOString(),
      // Every other one was planned too tight and came in late.
      plannedArrival: new Date(arrived + (i % 2 === 0 ? 30 : -25) * MINUTE).toISOString(),
    };
    const past = await deps.tasks.create(caller, taskBodySchema.parse(done), META);
    const completedAt = Math.min(arrived + 5 * MINUTE, now);
    await db
      .update(transportTasks)
      .set({
        status: 'completed',
        createdAt: new Date(prev.stopStartMs - 30 * MINUTE),
        startedAt: new Date(left + 2 * MINUTE),
        startMode: 'auto',
        arrivedAt: new Date(arrived),
        arriveMode: 'auto',
        completedAt: new Date(completedAt),
      })
      .where(eq(transportTasks.id, past.id));
    await addEvent(db, past.id, null, 'started', { mode: 'auto' }, new Date(left + 2 * MINUTE));
    await addEvent(db, past.id, null, 'arrived', { mode: 'auto' }, new Date(arrived));
    await addEvent(db, past.id, demo.account, 'status_changed', { from: 'arrived', to: 'completed', note: '', mode: 'manual' }, new Date(completedAt));

    // The leg of the slot now: planned while the truck stood at its origin.
    const next: TaskInput = {
      ...GOODS[(i + 3) % GOODS.length]!,
      ...settings(sim, forwardOf(state.leg)),
      templateId: templateIds.get(key)!,
      deviceIds: [d.id],
      assetId,
      driverName: ['王伟', '李强', '张敏', '刘洋', '陈杰', '杨帆', '赵磊', '黄涛'][i % 8]!,
      driverPhone: `1390000${String(1000 + i)}`,
      plannedStart: new Date(state.stopEndMs).toISOString(),
      plannedArrival: new Date(state.stopEndMs + s.legMs * 1.1).toISOString(),
    };
    const current = await deps.tasks.create(caller, taskBodySchema.parse(next), META);
    await db.update(transportTasks).set({ createdAt: new Date(state.stopStartMs + MINUTE) }).where(eq(transportTasks.id, current.id));
    made += 2;
  }
  return made;
}
