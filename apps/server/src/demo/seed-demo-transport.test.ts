// The demo's transport tasks: templates per truck route, a completed task per truck for the leg it
// drove last, and a pending one for the leg of now, which the recogniser starts from the past
// day's readings when the truck has left (and ends when it got there), as `npm start` does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Page } from '@iotc/shared/envelope';
import type { TaskRow, TemplateRow } from '@iotc/shared/transport';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../test/harness.ts';
import { demoDevices, seedDemoFleet } from './seed-demo.ts';
import { seedDemoTransport } from './seed-demo-transport.ts';
import { backfill } from '../sim/demo.ts';
import { createDevice } from '../sim/models.ts';
import { shuttleAt } from '../sim/shuttle.ts';
import { transportTaskDevices } from '../db/schema.ts';

let t: TestApp;
let token: string;
const NOW = Date.now();
/** The readings put in: the past hours before NOW. */
const HOURS = 12;

beforeAll(async () => {
  t = await testApp();
  await seedDemoFleet(t.app.database.db);
  const fleet = await demoDevices(t.app.database.db);
  await seedDemoTransport(t.app.database.db, { tasks: t.app.transportTasks, templates: t.app.transportTemplates }, fleet, NOW);
  const trucks = fleet.filter((d) => d.kind === 'vehicle');
  const past = backfill(trucks, { hours: HOURS, stepMs: 60_000, now: NOW });
  for (const [i, d] of trucks.entries()) {
    const reports = past[i]!.reports;
    for (let k = 0; k < reports.length; k += 500) await t.app.intake.ingest(d, reports.slice(k, k + 500), 'mqtt');
  }
  await t.app.readings.flushed();
  await t.app.taskRecognizer.settled();
  token = await login(t.app, 'demo', DEMO_PASSWORD);
}, 120_000);
afterAll(async () => t?.close());

describe('the demo transport tasks', () => {
  it('has templates, a completed task and a current task for each truck', async () => {
    const templates = (await call<Page<TemplateRow>>(t.app, { method: 'GET', url: '/api/iot/v2/transport-templates?size=100', token })).body.data!;
    expect(templates.total).toBeGreaterThan(0);
    expect(templates.rows.every((r) => r.route.length >= 2 && r.alarm.levelId)).toBe(true);
    const tasks = (await call<Page<TaskRow>>(t.app, { method: 'GET', url: '/api/iot/v2/transport-tasks?size=100', token })).body.data!;
    expect(tasks.total).toBe(16);
    const completed = tasks.rows.filter((r) => r.status === 'completed');
    expect(completed).toHaveLength(8);
    for (const r of completed) {
      expect(Date.parse(r.startedAt!)).toBeLessThan(Date.parse(r.arrivedAt!));
      expect(r.onTime).not.toBeNull();
    }
    expect(completed.some((r) => r.onTime) && completed.some((r) => !r.onTime)).toBe(true);
    // Each on its truck.
    expect(tasks.rows.every((r) => r.asset?.kind === 'vehicle')).toBe(true);
  });

  it('lets the recogniser start the current task of each truck that has left, at the time it left', async () => {
    const tasks = (await call<Page<TaskRow>>(t.app, { method: 'GET', url: '/api/iot/v2/transport-tasks?size=100&status=pending,in_transit,arrived', token })).body.data!.rows;
    expect(tasks).toHaveLength(8);
    const fleet = await demoDevices(t.app.database.db);
    let checked = 0;
    for (const task of tasks) {
      const [link] = await t.app.database.db.select().from(transportTaskDevices).where(eq(transportTaskDevices.taskId, task.id));
      const d = fleet.find((f) => f.id === link!.deviceRef)!;
      const sim = createDevice({ deviceId: d.deviceId, kind: 'vehicle', profile: d.profile });
      const state = shuttleAt(sim.kind === 'vehicle' ? sim.shuttle : (undefined as never), NOW);
      if (state.stopStartMs < NOW - HOURS * 3_600_000) {
        // It stood at the origin before the first reading put in: the readings show it on its
        // way only, so it started (from its first moves) but not at the timetable's departure.
        expect(task.status, task.code).not.toBe('pending');
        checked++;
      } else if (NOW - state.stopEndMs > 10 * 60_000) {
        // Departed at least ten minutes ago: out of the 1 km origin circle by now.
        expect(task.status, task.code).not.toBe('pending');
        expect(task.startMode).toBe('auto');
        // Within a few one-minute reports of the timetable's departure.
        expect(Math.abs(Date.parse(task.startedAt!) - state.stopEndMs)).toBeLessThan(6 * 60_000);
        checked++;
      } else if (NOW < state.stopEndMs) {
        expect(task.status, task.code).toBe('pending');
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
