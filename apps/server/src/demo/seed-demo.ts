// The demo organisation's fleet, put in once on a fresh database: cold-chain warehouses with
// their cold rooms and refrigerators, reefer trucks, reefer containers, gateways, a device on
// each (bound, so the live views show limits), alarm policies for them, and two platform
// notifications. The simulator
// (src/sim) feeds these devices over MQTT so every screen shows life; two of the trucks carry
// JT/T 808 terminals instead (protocol jt808, their phone numbers as device ids), which the
// simulator drives over TCP to the gateway.
import { and, eq, inArray, or } from 'drizzle-orm';
import { ruleSchema, type AlarmRuleInput } from '@iotc/shared/alarm';
import { CURRENT_BINDING } from '../db/devices.ts';
import { LOCKS, xactLock, type Db, type Tx } from '../db/client.ts';
import { alarmLevels, alarmPolicies, assets, deviceBindings, devices, jt808Models, jt808Terminals, notices, orgs } from '../db/schema.ts';
import { hashSecret, newSecret } from '../ingest/pipeline.ts';
import { DEMO_ORG } from '../db/seed.ts';
import { registrationOf } from '../sim/jt808-terminal.ts';

export type DemoKind = 'vehicle' | 'container' | 'coldroom';

type AssetSeed = {
  kind: 'vehicle' | 'container' | 'warehouse' | 'cold_room' | 'refrigerator' | 'gateway';
  code: string;
  name: string;
  attrs: Record<string, string | number | null>;
  range?: [number, number];
  humidity?: [number, number];
  children?: AssetSeed[];
  /** The device mounted on it. */
  device?: { deviceId: string; name: string; model: string; protocol?: 'json' | 'jt808' };
};

const WAREHOUSES: [string, string, string, string, string, string, number, number][] = [
  ['WH-SH-01', '上海浦东冷链物流园', '上海', '上海', '浦东新区临港大道 888 号', '201306', 30.9126, 121.9318],
  ['WH-GZ-01', '广州白云冷链中心', '广东', '广州', '白云区太和镇永兴村', '510540', 23.3312, 113.3196],
  ['WH-BJ-01', '北京大兴冷链仓', '北京', '北京', '大兴区京开高速西红门出口', '102600', 39.7869, 116.3330],
];

function fleet(): AssetSeed[] {
  let serial = 1;
  const imei = () => `86${String(100000000000 + serial++).padStart(13, '0')}`;
  const seeds: AssetSeed[] = [];
  WAREHOUSES.forEach(([code, name, province, city, address, zip, lat, lon], i) => {
    seeds.push({
      kind: 'warehouse',
      code,
      name,
      attrs: { province, city, address, zip, lat, lon },
      range: [-25, 8],
      children: [
        { kind: 'cold_room', code: `${code}-F`, name: `${city}冷冻库`, attrs: { area: 1200 }, range: [-25, -18], humidity: [40, 90], device: { deviceId: imei(), name: `${city}冷冻库温湿度计`, model: 'TL-200' } },
        {
          kind: 'cold_room',
          code: `${code}-C`,
          name: `${city}冷藏库`,
          attrs: { area: 800 },
          range: [2, 8],
          humidity: [45, 85],
          device: { deviceId: imei(), name: `${city}冷藏库温湿度计`, model: 'TL-200' },
          children: [{ kind: 'refrigerator', code: `${code}-C-R1`, name: `${city}医药冷柜`, attrs: { model: 'MPC-5V' }, range: [2, 8], device: { deviceId: imei(), name: `${city}冷柜记录仪`, model: 'TL-100' } }],
        },
      ],
    });
    seeds.push({ kind: 'gateway', code: `GW-${code.slice(3)}`, name: `${city}仓网关`, attrs: { model: 'GW-4G', serial: `GW${2026000 + i}`, ip: `10.0.${i + 1}.1` } });
  });
  const plates = ['沪A·D1001', '沪A·D1002', '苏E·F2003', '浙A·K3004', '粤A·M4005', '粤B·N5006', '京A·P6007', '川A·Q7008'];
  const drivers = ['王伟', '李强', '张敏', '刘洋', '陈杰', '杨帆', '赵磊', '黄涛'];
  plates.forEach((plate, i) => {
    const frozen = i % 3 === 2;
    // The two Guangdong trucks (one chilled, one frozen) report over JT/T 808: a terminal phone
    // number of 12 digits; the IMEI sequence is drawn all the same, so the other ids stay put.
    const imeiId = imei();
    const jt808 = JT808_TRUCKS.includes(i);
    seeds.push({
      kind: 'vehicle',
      code: plate,
      name: `冷藏车 ${i + 1}`,
      attrs: { vehicleType: frozen ? '冷冻车' : '冷藏车', driver: drivers[i]!, driverPhone: `1390000${String(1000 + i)}` },
      range: frozen ? [-22, -15] : [2, 8],
      humidity: [30, 90],
      device: jt808
        ? { deviceId: `0144${String(80000001 + i)}`, name: `${plate} 部标终端`, model: JT808_DEMO_MODEL, protocol: 'jt808' }
        : { deviceId: imeiId, name: `${plate} 车载终端`, model: 'GT-06' },
    });
  });
  ['MSCU5287310', 'CMAU7712045', 'OOLU6230981', 'COSU1180562'].forEach((no, i) => {
    seeds.push({
      kind: 'container',
      code: no,
      name: `冷藏箱 ${i + 1}`,
      attrs: { containerType: '40RH', size: "40'", owner: i % 2 ? 'COSCO' : 'MSC' },
      range: i % 2 ? [2, 8] : [-25, -18],
      device: { deviceId: imei(), name: `${no} 箱载终端`, model: 'RT-40' },
    });
  });
  return seeds;
}

/** Trucks (by their place in the list of plates) whose terminals speak JT/T 808. */
export const JT808_TRUCKS: readonly number[] = [4, 5];
/**
 * Their terminals' model, registered over JT/T 808 too; the demo organisation maps its reefer
 * probe, additional item 0x51 (sign and magnitude in 0.1 C, as traccar's Huabao decoder reads
 * it), to the temperature channel.
 */
export const JT808_DEMO_MODEL = 'JT808-4G';

const DEMO_KIND: Record<string, DemoKind> = { vehicle: 'vehicle', container: 'container', cold_room: 'coldroom', refrigerator: 'coldroom' };

/** The past the demo stores for its devices at the first start (main.ts), in hours. */
export const DEMO_HISTORY_HOURS = 24;

/**
 * Puts the fleet in when the demo organisation has no assets yet; true when it did. The devices
 * are installed and bound from `since` (by default just before the past day the demo stores), so
 * every report and the track agree on whose readings those are.
 */
export async function seedDemoFleet(db: Db, opts: { since?: Date } = {}): Promise<boolean> {
  const since = opts.since ?? new Date(Date.now() - DEMO_HISTORY_HOURS * 3_600_000 - 60_000);
  const [org] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.code, DEMO_ORG));
  if (!org) return false;
  const [any] = await db.select({ id: assets.id }).from(assets).where(eq(assets.orgId, org.id)).limit(1);
  if (any) return false;
  return db.transaction(async (tx) => {
    // Nodes starting together: one puts the fleet in, the others find it there (checked again under the lock).
    await xactLock(tx, LOCKS.seed);
    const [again] = await tx.select({ id: assets.id }).from(assets).where(eq(assets.orgId, org.id)).limit(1);
    if (again) return false;
    async function put(a: AssetSeed, parentId: string | null) {
      const [row] = await tx
        .insert(assets)
        .values({
          orgId: org!.id,
          kind: a.kind,
          code: a.code,
          name: a.name,
          parentId,
          attrs: a.attrs,
          tempMin: a.range?.[0] ?? null,
          tempMax: a.range?.[1] ?? null,
          humidityMin: a.humidity?.[0] ?? null,
          humidityMax: a.humidity?.[1] ?? null,
        })
        .returning({ id: assets.id });
      if (a.device) {
        const [d] = await tx
          .insert(devices)
          .values({ orgId: org!.id, deviceId: a.device.deviceId, name: a.device.name, model: a.device.model, protocol: a.device.protocol ?? 'json', secretHash: hashSecret(newSecret()), createdAt: since })
          .onConflictDoNothing()
          .returning({ id: devices.id });
        if (d) {
          await tx.insert(deviceBindings).values({ orgId: org!.id, deviceRef: d.id, deviceId: a.device.deviceId, assetRef: row!.id, assetKind: a.kind, assetCode: a.code, assetName: a.name, boundBy: 'system', boundAt: since });
        }
        if (d && a.device.protocol === 'jt808') {
          // Registered as the simulator registers it, before the past day it reported (which the
          // demo stores next, through its model's item mapping); no code: it registers again at its
          // first connection.
          await tx.insert(jt808Terminals).values({ deviceRef: d.id, orgId: org!.id, ...registrationOf({ deviceId: a.device.deviceId, plate: a.code, model: a.device.model }), registeredAt: since });
        }
      }
      for (const c of a.children ?? []) await put(c, row!.id);
    }
    for (const a of fleet()) await put(a, null);
    await demoPolicies(tx, org!.id);
    await tx.insert(jt808Models).values({
      orgId: org!.id,
      model: JT808_DEMO_MODEL,
      description: '冷藏车部标终端：附加信息 0x51 为冷机温度探头',
      items: [{ id: '0x51', layout: 'sm16/10', offset: 0, channel: 'temperature', probe: 1 }],
    });
    const [notice] = await tx.select({ id: notices.id }).from(notices).limit(1);
    if (!notice) {
      await tx.insert(notices).values([
        {
          titleZh: '欢迎使用物联网云平台',
          titleEn: 'Welcome to IoT Cloud Console',
          bodyZh: '演示组织已配置冷链仓库、冷藏车与冷藏箱，设备数据由内置模拟器实时上报。',
          bodyEn: 'The demo organisation has cold-chain warehouses, reefer trucks and containers; a built-in simulator reports their devices live.',
          level: 'important',
        },
        { titleZh: '平台例行维护通知', titleEn: 'Routine platform maintenance', bodyZh: '', bodyEn: '', level: 'info', publishedAt: new Date(Date.now() - 86_400_000) },
      ]);
    }
    return true;
  });
}

export interface DemoDevice {
  id: string;
  orgId: string;
  deviceId: string;
  kind: DemoKind;
  /** json devices report over MQTT, jt808 ones over TCP to the JT/T 808 gateway. */
  protocol: 'json' | 'jt808';
  /** A JT/T 808 truck's plate (its asset code) and terminal model, which its terminal registers with. */
  plate?: string;
  model?: string;
  /** The middle of the asset's temperature range, and for fixed loggers their warehouse's position. */
  profile: { setPointC?: number; site?: { lat: number; lon: number } };
}

/** The demo organisation's devices with the simulator kind and profile of the asset each is mounted on. */
export async function demoDevices(db: Db): Promise<DemoDevice[]> {
  const [org] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.code, DEMO_ORG));
  if (!org) return [];
  const all = await db.select().from(assets).where(eq(assets.orgId, org.id));
  const byId = new Map(all.map((a) => [a.id, a]));
  /** The position of the asset or of the nearest ancestor that has one. */
  const siteOf = (id: string | null): { lat: number; lon: number } | undefined => {
    const a = id ? byId.get(id) : undefined;
    if (!a) return undefined;
    const { lat, lon } = a.attrs as { lat?: number; lon?: number };
    return typeof lat === 'number' && typeof lon === 'number' ? { lat, lon } : siteOf(a.parentId);
  };
  const rows = await db
    .select({ id: devices.id, orgId: devices.orgId, deviceId: devices.deviceId, protocol: devices.protocol, model: devices.model, assetRef: deviceBindings.assetRef })
    .from(devices)
    .innerJoin(deviceBindings, CURRENT_BINDING)
    .where(eq(devices.orgId, org.id));
  return rows.flatMap((r) => {
    const a = r.assetRef ? byId.get(r.assetRef) : undefined;
    const kind = a ? DEMO_KIND[a.kind] : undefined;
    if (!a || !kind) return [];
    const setPointC = a.tempMin !== null && a.tempMax !== null ? (a.tempMin + a.tempMax) / 2 : undefined;
    return [{ id: r.id, orgId: r.orgId, deviceId: r.deviceId, kind, protocol: r.protocol, ...(r.protocol === 'jt808' ? { plate: a.code, model: r.model ?? undefined } : {}), profile: { setPointC, site: kind === 'coldroom' ? siteOf(a.id) : undefined } }];
  });
}

/** New secrets for the simulator to sign in with (the demo devices' old ones stop working). */
export async function rekey(db: Db, ids: string[]): Promise<Map<string, string>> {
  const secrets = new Map<string, string>();
  for (const id of ids) {
    const secret = newSecret();
    secrets.set(id, secret);
    await db.update(devices).set({ secretHash: hashSecret(secret) }).where(eq(devices.id, id));
  }
  return secrets;
}

/**
 * Alarm policies of the demo fleet: chilled and frozen goods out of range for five minutes,
 * cold-room doors left open, the safety of trucks and containers (speed, doors opened away
 * from the warehouses, battery, silence), and the alarms the JT/T 808 trucks' terminals raise
 * themselves (their alarm bits: emergency button, overspeed, main power cut or low, collision,
 * rollover), which only a policy turns into alarms with a level.
 */
async function demoPolicies(tx: Tx, orgId: string) {
  const levels = new Map((await tx.select({ id: alarmLevels.id, code: alarmLevels.code }).from(alarmLevels).where(eq(alarmLevels.orgId, orgId))).map((l) => [l.code, l.id]));
  const level = (code: string) => levels.get(code)!;
  const assetIds = async (where: ReturnType<typeof or>) =>
    (await tx.select({ id: assets.id }).from(assets).where(and(eq(assets.orgId, orgId), where))).map((a) => a.id);
  const chilled = await assetIds(and(inArray(assets.kind, ['cold_room', 'refrigerator', 'vehicle', 'container']), eq(assets.tempMin, 2), eq(assets.tempMax, 8)));
  const frozen = await assetIds(and(inArray(assets.kind, ['cold_room', 'vehicle', 'container']), or(eq(assets.tempMax, -18), eq(assets.tempMax, -15))));
  const terminals = (await tx.select({ id: devices.id }).from(devices).where(and(eq(devices.orgId, orgId), eq(devices.protocol, 'jt808')))).map((d) => d.id);
  const depots = WAREHOUSES.map(([, name, , , , , lat, lon]) => ({ name, lat, lon, radiusM: 800 }));
  const rules = (list: AlarmRuleInput[]) => list.map((r) => ruleSchema.parse(r));
  await tx.insert(alarmPolicies).values([
    {
      orgId,
      name: '冷藏品温度 2-8 °C',
      description: '冷藏货物 2-8 °C，超出范围持续 5 分钟即告警',
      scope: 'assets',
      targets: chilled,
      rules: rules([
        { id: 'hot', type: 'temp_high', threshold: 8, hysteresis: 0.5, durationS: 300, levelId: level('urgent') },
        { id: 'cold', type: 'temp_low', threshold: 2, hysteresis: 0.5, durationS: 300, levelId: level('important') },
      ]),
    },
    {
      orgId,
      name: '冷冻品温度 ≤ -15 °C',
      description: '冷冻货物高于 -15 °C 持续 5 分钟即告警',
      scope: 'assets',
      targets: frozen,
      rules: rules([{ id: 'thaw', type: 'temp_high', threshold: -15, hysteresis: 1, durationS: 300, levelId: level('urgent') }]),
    },
    {
      orgId,
      name: '冷库门未关',
      description: '冷库门打开超过 10 分钟',
      scope: 'asset_kinds',
      targets: ['cold_room'],
      rules: rules([{ id: 'door', type: 'door_abnormal', threshold: 0, durationS: 600, levelId: level('reminder') }]),
    },
    {
      orgId,
      name: '车辆与冷藏箱安全',
      description: '冷藏车与冷藏箱：超速、在仓库以外开门、低电量与离线',
      scope: 'asset_kinds',
      targets: ['vehicle', 'container'],
      rules: rules([
        { id: 'speed', type: 'overspeed', threshold: 100, hysteresis: 5, durationS: 30, levelId: level('important') },
        { id: 'door', type: 'door_abnormal', threshold: 0, places: depots, levelId: level('important') },
        { id: 'battery', type: 'low_battery', threshold: 20, hysteresis: 2, levelId: level('minor') },
        { id: 'silent', type: 'offline', threshold: 1800, levelId: level('minor') },
      ]),
    },
    {
      orgId,
      name: '部标终端报警',
      description: '部标（JT/T 808）车载终端自身上报的报警：紧急报警、超速、主电源掉电与欠压、碰撞与侧翻',
      scope: 'devices',
      targets: terminals,
      rules: rules([
        { id: 'sos', type: 'jt808_sos', threshold: 0, levelId: level('urgent') },
        { id: 'collision', type: 'jt808_collision', threshold: 0, levelId: level('urgent') },
        { id: 'rollover', type: 'jt808_rollover', threshold: 0, levelId: level('urgent') },
        { id: 'power-cut', type: 'jt808_power_cut', threshold: 0, levelId: level('important') },
        { id: 'overspeed', type: 'jt808_overspeed', threshold: 0, levelId: level('important') },
        { id: 'low-power', type: 'jt808_power_under_voltage', threshold: 0, levelId: level('minor') },
      ]),
    },
  ]);
}
