// The demo organisation's alarm policies: put in with its fleet, valid by the same schema the API
// checks, and aimed at the assets they name (chilled goods at the 2-8 °C assets, frozen at the
// frozen ones), so the simulator's door openings and temperature swings raise real alarms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { policyBodySchema } from '@iotc/shared/alarm';
import { testApp, type TestApp } from '../../test/harness.ts';
import { seedDemoFleet } from '../../demo/seed-demo.ts';
import { alarmPolicies, assets } from '../../db/schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
  await seedDemoFleet(t.app.database.db);
});
afterAll(async () => {
  await t.close();
});

describe('demo alarm policies', () => {
  it('are valid policies whose targets are the chilled, frozen, cold-room and vehicle assets', async () => {
    const db = t.app.database.db;
    const policies = await db.select().from(alarmPolicies);
    expect(policies.map((p) => p.name)).toEqual(['冷藏品温度 2-8 °C', '冷冻品温度 ≤ -15 °C', '冷库门未关', '车辆与冷藏箱安全', '部标终端报警']);
    for (const p of policies) expect(policyBodySchema.safeParse(p).success, p.name).toBe(true);
    const targetsOf = async (name: string) => {
      const p = policies.find((x) => x.name === name)!;
      return db.select({ kind: assets.kind, tempMin: assets.tempMin, tempMax: assets.tempMax }).from(assets).where(inArray(assets.id, p.targets));
    };
    const chilled = await targetsOf('冷藏品温度 2-8 °C');
    expect(chilled.length).toBeGreaterThanOrEqual(10);
    expect(chilled.every((a) => a.tempMin === 2 && a.tempMax === 8)).toBe(true);
    const frozen = await targetsOf('冷冻品温度 ≤ -15 °C');
    expect(frozen.length).toBeGreaterThanOrEqual(5);
    expect(frozen.every((a) => (a.tempMax ?? 0) <= -15)).toBe(true);
    const safety = policies.find((p) => p.name === '车辆与冷藏箱安全')!;
    expect(safety.targets).toEqual(['vehicle', 'container']);
    expect((await db.select().from(alarmPolicies).where(eq(alarmPolicies.enabled, false))).length).toBe(0);
  });
});
