// Inbound and outbound records of the demo warehouses over the past week, put in once for a fresh
// demo organisation after the past day's readings are stored (so the records of the last day
// carry the temperature at hand-over): older movements approved, the last day's waiting for
// review, and one rejected. Every approved outbound leaves stock, as an approval would demand.
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { assets, orgs, users, warehouseRecords } from '../db/schema.ts';
import { DEMO_ORG } from '../db/seed.ts';
import { placeValues, type Location } from '../modules/warehouse/service.ts';

const HOUR = 3_600_000;
type Asset = typeof assets.$inferSelect;
type Step = { hoursAgo: number; direction: 'in' | 'out'; quantity: number; status: 'approved' | 'pending' | 'rejected'; reason?: string };

/** Goods per place: frozen rooms, chilled rooms, refrigerators, the warehouse floor. */
const GOODS: Record<'frozen' | 'chilled' | 'fridge' | 'floor', { name: string; unit: string }[]> = {
  frozen: [
    { name: '速冻水饺', unit: '箱' },
    { name: '进口冷冻牛肉', unit: '托' },
  ],
  chilled: [
    { name: '鲜牛奶', unit: '箱' },
    { name: '新鲜果蔬', unit: '筐' },
  ],
  fridge: [{ name: '胰岛素注射液', unit: '盒' }],
  floor: [{ name: '保温箱及冰袋', unit: '件' }],
};
const HANDLERS = ['王伟', '李强', '张敏', '刘洋', '陈杰'];

/** The story of one goods at one place: two approved inbounds, an approved outbound, then the last day's pending ones. */
function steps(k: number): Step[] {
  return [
    { hoursAgo: 150 - k * 3, direction: 'in', quantity: 120, status: 'approved' },
    { hoursAgo: 80 - k * 2, direction: 'in', quantity: 60, status: 'approved' },
    { hoursAgo: 40 - k, direction: 'out', quantity: 90, status: 'approved' },
    { hoursAgo: 18 - (k % 6), direction: 'in', quantity: 30, status: 'pending' },
    { hoursAgo: 5 - (k % 4), direction: 'out', quantity: 25, status: 'pending' },
  ];
}

/** Puts the records in when the demo organisation has none; answers how many it stored. */
export async function seedDemoWarehouse(db: Db, now = Date.now()): Promise<number> {
  const [org] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.code, DEMO_ORG));
  if (!org) return 0;
  const [any] = await db.select({ id: warehouseRecords.id }).from(warehouseRecords).where(eq(warehouseRecords.orgId, org.id)).limit(1);
  if (any) return 0;
  const [demo] = await db.select().from(users).where(eq(users.account, 'demo'));
  const [reviewer] = await db.select().from(users).where(eq(users.account, 'admin'));
  if (!demo) return 0;
  const all = await db
    .select()
    .from(assets)
    .where(and(eq(assets.orgId, org.id), inArray(assets.kind, ['warehouse', 'cold_room', 'refrigerator'])))
    .orderBy(assets.code);
  const byId = new Map(all.map((a) => [a.id, a]));
  const warehouseOf = (a: Asset): Asset | undefined => {
    for (let p = a.parentId ? byId.get(a.parentId) : undefined; p; p = p.parentId ? byId.get(p.parentId) : undefined) if (p.kind === 'warehouse') return p;
    return undefined;
  };
  const places: { loc: Location; kind: keyof typeof GOODS }[] = [];
  for (const a of all) {
    if (a.kind === 'warehouse') places.push({ loc: { warehouse: a, room: null }, kind: 'floor' });
    else {
      const w = warehouseOf(a);
      if (!w) continue;
      const kind = a.kind === 'refrigerator' ? 'fridge' : (a.tempMax ?? 0) < 0 ? 'frozen' : 'chilled';
      places.push({ loc: { warehouse: w, room: a }, kind });
    }
  }
  const values: (typeof warehouseRecords.$inferInsert)[] = [];
  let k = 0;
  let rejected = false;
  for (const { loc, kind } of places) {
    // The warehouse floor and refrigerators hold one goods, rooms two (the second only in the bigger rooms).
    const goods = GOODS[kind].slice(0, kind === 'frozen' || kind === 'chilled' ? (k % 2) + 1 : 1);
    for (const g of goods) {
      const batch = `${loc.warehouse.code.replace(/^WH-/, '')}-${String(now - (now % 86_400_000)).slice(-5)}-${k + 1}`;
      for (const s of steps(k)) {
        const time = new Date(now - s.hoursAgo * HOUR - (k % 7) * 60_000);
        // One inbound of the last day is rejected: the delivery note did not match.
        const status = !rejected && s.status === 'pending' && s.direction === 'in' && kind === 'chilled' ? 'rejected' : s.status;
        if (status === 'rejected') rejected = true;
        const reviewed = status !== 'pending';
        values.push({
          ...(await placeValues(db, loc, time)),
          direction: s.direction,
          goodsName: g.name,
          batchNo: batch,
          quantity: kind === 'fridge' ? s.quantity * 2 : s.quantity,
          unit: g.unit,
          handler: HANDLERS[(k + values.length) % HANDLERS.length]!,
          remark: '',
          auditStatus: status,
          reviewerId: reviewed ? (reviewer?.id ?? null) : null,
          reviewer: reviewed ? (reviewer?.account ?? 'admin') : null,
          reviewedAt: reviewed ? new Date(Math.min(now, time.getTime() + 2 * HOUR)) : null,
          auditReason: status === 'rejected' ? '随货单据与批次号不符，请核对后重新登记' : '',
          createdById: demo.id,
          createdBy: demo.account,
          createdAt: time,
          updatedAt: time,
        });
      }
      k++;
    }
  }
  if (values.length) await db.insert(warehouseRecords).values(values);
  return values.length;
}
