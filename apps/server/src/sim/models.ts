// Simulated devices: a truck tracker with a reefer, a reefer container, a cold-room logger. A
// device's whole behaviour is fixed by (seed, device id) and computed as a function of time, so
// `step` may be called at any interval, a restart resumes the same journey, and a backfill of
// the past day joins the live reports without a jump.
import type { DeviceReport } from '@iotc/shared/device';
import type { SensorValues } from '@iotc/shared/sensors';
import { encodeExtraData } from './encode.ts';
import { daylightLux, openingShare, outdoorC, pressureKpa, sawtoothBattery, type Opening } from './environment.ts';
import { between, hashText, mix, smoothNoise, unit } from './random.ts';
import { ROUTES, SITES, type Route, type Site } from './routes.ts';
import { createShuttle, shuttleAt, type Shuttle, type ShuttleState } from './shuttle.ts';

export type DeviceKind = 'vehicle' | 'container' | 'coldroom';
export const DEVICE_KINDS: readonly DeviceKind[] = ['vehicle', 'container', 'coldroom'];
/** The seed of the demo and the command line unless one is given: the same devices every run. */
export const DEFAULT_SEED = 20261121;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Share of each kind in a mixed fleet. */
const KIND_SHARE: Record<DeviceKind, number> = { vehicle: 0.6, container: 0.25, coldroom: 0.15 };

// What a hash is for: each random choice of a device gets its own tag (shuttle.ts uses 101 up).
const T = {
  kind: 1, route: 2, cruise: 3, cargo: 4, odometer: 5, battery: 6, acc: 7, door: 8, doorAt: 9, doorFor: 10,
  light: 11, bump: 12, bumpSize: 13, lbs: 14, lbsDir: 15, lbsKm: 16, parked: 17, yard: 18, setPoint: 19,
  excursion: 20, excursionAt: 21, excursionFor: 22, excursionPeak: 23, site: 24, freezer: 25, defrost: 26,
  offsetN: 27, offsetE: 28, noise: 29,
} as const;

interface Common {
  deviceId: string;
  /** Hash of (seed, device id): the root of every choice the device makes. */
  key: number;
}

export interface VehicleSim extends Common {
  kind: 'vehicle';
  route: Route;
  shuttle: Shuttle;
  /** Frozen cargo at -18 C, or chilled at 5 C. */
  frozen: boolean;
  setPointC: number;
  /** Odometer when its timetable began (shuttle.ts EPOCH_MS), km. */
  odometerKm: number;
}

export interface ContainerSim extends Common {
  kind: 'container';
  /** Hauled between a port yard and a depot, or null when it sits in the yard. */
  shuttle: Shuttle | null;
  /** Its yard: where it sits for good when not hauled, or where its hauls start. */
  lat: number;
  lon: number;
  setPointC: number;
}

export interface ColdroomSim extends Common {
  kind: 'coldroom';
  site: Site;
  lat: number;
  lon: number;
  freezer: boolean;
  setPointC: number;
}

export type SimDevice = VehicleSim | ContainerSim | ColdroomSim;

const TRUCK_ROUTES = ROUTES.filter((r) => r.use === 'truck');
const DRAYAGE_ROUTES = ROUTES.filter((r) => r.use === 'drayage');
const YARDS = SITES.filter((s) => s.kind === 'yard');
const COLD_PARKS = SITES.filter((s) => s.kind === 'coldroom');

const pick = <V>(list: readonly V[], ...key: number[]): V => list[Math.floor(unit(...key) * list.length)]!;

/** A point up to `metres` from a site, so devices at the same park or yard do not stack on one spot. */
function nearby(lat: number, lon: number, metres: number, key: number) {
  const north = between(-metres, metres, key, T.offsetN) / 111_195;
  const east = between(-metres, metres, key, T.offsetE) / (111_195 * Math.cos((lat * Math.PI) / 180));
  return { lat: lat + north, lon: lon + east };
}

/** A kind for a device without one: by the fleet shares, among the allowed kinds. */
function kindFor(key: number, kinds: readonly DeviceKind[]): DeviceKind {
  const total = kinds.reduce((sum, k) => sum + KIND_SHARE[k], 0);
  let r = unit(key, T.kind) * total;
  for (const k of kinds) {
    r -= KIND_SHARE[k];
    if (r < 0) return k;
  }
  return kinds[kinds.length - 1]!;
}

/** The simulator's device ids: prefix and a six-digit number from 1, e.g. SIM000001. */
export function simDeviceId(prefix: string, n: number): string {
  return `${prefix}${String(n).padStart(6, '0')}`;
}

/** One simulated device; without a kind it gets one by the fleet shares. */
/** What a registered asset says about its device: the goods' set point, and where a fixed logger is. */
export interface DeviceProfile {
  setPointC?: number;
  site?: { lat: number; lon: number };
}

export function createDevice(opts: { deviceId: string; seed?: number; kind?: DeviceKind; kinds?: readonly DeviceKind[]; profile?: DeviceProfile }): SimDevice {
  const key = mix(opts.seed ?? DEFAULT_SEED, hashText(opts.deviceId));
  const kind = opts.kind ?? kindFor(key, opts.kinds ?? DEVICE_KINDS);
  const sim = kind === 'vehicle' ? createVehicle(opts.deviceId, key) : kind === 'container' ? createContainer(opts.deviceId, key) : createColdroom(opts.deviceId, key);
  return withProfile(sim, opts.profile);
}

/** The asset's set point and place instead of the drawn ones. */
function withProfile(sim: SimDevice, profile: DeviceProfile | undefined): SimDevice {
  if (!profile) return sim;
  const setPointC = profile.setPointC ?? sim.setPointC;
  if (sim.kind === 'vehicle') return { ...sim, setPointC, frozen: setPointC < 0 };
  if (sim.kind === 'container') return { ...sim, setPointC };
  const site = profile.site ? { ...sim.site, lat: profile.site.lat, lon: profile.site.lon } : sim.site;
  return { ...sim, setPointC, freezer: setPointC < 0, site, ...(profile.site ? nearby(site.lat, site.lon, 60, sim.key) : {}) };
}

/** `count` devices `<prefix>000001`... with kinds drawn from `kinds` (all by default). */
export function createFleet(opts: { count: number; seed?: number; kinds?: readonly DeviceKind[]; prefix?: string }): SimDevice[] {
  return Array.from({ length: opts.count }, (_, i) =>
    createDevice({ deviceId: simDeviceId(opts.prefix ?? 'SIM', i + 1), seed: opts.seed, kinds: opts.kinds }),
  );
}

function createVehicle(deviceId: string, key: number): VehicleSim {
  const route = pick(TRUCK_ROUTES, key, T.route);
  // Average speeds of 70-77 km/h: with the traffic wave between slowdowns that is about 60-95 km/h.
  const shuttle = createShuttle({ path: route.path, key, cruiseKmh: between(70, 77, key, T.cruise), minStopMs: 5 * MINUTE, maxStopMs: 20 * MINUTE });
  const frozen = unit(key, T.cargo) < 0.4;
  return { kind: 'vehicle', deviceId, key, route, shuttle, frozen, setPointC: frozen ? -18 : 5, odometerKm: between(20_000, 150_000, key, T.odometer) };
}

function createContainer(deviceId: string, key: number): ContainerSim {
  const setPointC = pick([-20, -18, 2, 4, 13], key, T.setPoint);
  if (unit(key, T.parked) < 0.4) {
    const yard = pick(YARDS, key, T.yard);
    return { kind: 'container', deviceId, key, shuttle: null, ...nearby(yard.lat, yard.lon, 300, key), setPointC };
  }
  const route = pick(DRAYAGE_ROUTES, key, T.route);
  // Hauled slowly, and left in the yard or at the depot for hours between hauls.
  const shuttle = createShuttle({ path: route.path, key, cruiseKmh: between(35, 50, key, T.cruise), minStopMs: 2 * HOUR, maxStopMs: 8 * HOUR });
  const [lat, lon] = route.path[0]!;
  return { kind: 'container', deviceId, key, shuttle, lat, lon, setPointC };
}

function createColdroom(deviceId: string, key: number): ColdroomSim {
  const site = pick(COLD_PARKS, key, T.site);
  const freezer = unit(key, T.freezer) < 0.5;
  const setPointC = freezer ? -Math.round(between(18, 22, key, T.setPoint)) : Math.round(between(1, 3, key, T.setPoint) * 10) / 10;
  return { kind: 'coldroom', deviceId, key, site, ...nearby(site.lat, site.lon, 150, key), freezer, setPointC };
}

/** Smooth wandering of a reading, ±1 at most, with changes about `periodMs` apart. */
const wander = (d: SimDevice, what: number, tMs: number, periodMs: number) => smoothNoise(mix(d.key, T.noise, what), tMs, periodMs);

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The door opening at a shuttle stop, if the door is opened at this one. */
function stopOpening(d: SimDevice, s: ShuttleState, chance: number, durationMs: [number, number]): Opening | null {
  if (unit(d.key, s.leg, T.door) >= chance) return null;
  const stopMs = s.stopEndMs - s.stopStartMs;
  const startMs = s.stopStartMs + between(0.1, 0.4, d.key, s.leg, T.doorAt) * stopMs;
  // Closed again before the vehicle leaves.
  const endMs = Math.min(startMs + between(durationMs[0], durationMs[1], d.key, s.leg, T.doorFor), s.stopEndMs - 30 * SECOND);
  return endMs > startMs ? { startMs, endMs } : null;
}

/** At most one door opening per slot of `slotMs`, with the given chance, start and length. */
function slotOpening(d: SimDevice, slot: number, slotMs: number, chance: number, latestStartMs: number, durationMs: [number, number]): Opening | null {
  if (unit(d.key, slot, T.door) >= chance) return null;
  const startMs = slot * slotMs + between(0, latestStartMs, d.key, slot, T.doorAt);
  return { startMs, endMs: startMs + between(durationMs[0], durationMs[1], d.key, slot, T.doorFor) };
}

/** Openings of this slot and the `back` slots before it (an opening can run past its slot's end). */
function recentOpenings(d: SimDevice, tMs: number, slotMs: number, back: number, chance: number, latestStartMs: number, durationMs: [number, number]) {
  const slot = Math.floor(tMs / slotMs);
  const list: Opening[] = [];
  for (let k = slot - back; k <= slot; k++) {
    const o = slotOpening(d, k, slotMs, chance, latestStartMs, durationMs);
    if (o) list.push(o);
  }
  return list;
}

const isOpen = (openings: readonly Opening[], tMs: number) => openings.some((o) => tMs >= o.startMs && tMs < o.endMs);
const shareOf = (openings: readonly Opening[], tMs: number, riseMs: number, fallMs: number) =>
  Math.min(1, openings.reduce((sum, o) => sum + openingShare(o, tMs, riseMs, fallMs), 0));

/** Where the tracker says it is: GPS, or now and then a cell-tower (LBS) fix some hundreds of metres off. */
function trackerFix(d: VehicleSim, lat: number, lon: number, tMs: number): { lat: number; lon: number; positioning: 'GPS' | 'LBS' } {
  const minute = Math.floor(tMs / MINUTE);
  if (unit(d.key, minute, T.lbs) >= 0.04) return { lat, lon, positioning: 'GPS' };
  const km = between(0.3, 1.5, d.key, minute, T.lbsKm);
  const dir = between(0, 2 * Math.PI, d.key, minute, T.lbsDir);
  return { lat: lat + (km * Math.cos(dir)) / 111.195, lon: lon + (km * Math.sin(dir)) / (111.195 * Math.cos((lat * Math.PI) / 180)), positioning: 'LBS' };
}

const round = (v: number, decimals: number) => Math.round(v * 10 ** decimals) / 10 ** decimals;

function report(
  d: SimDevice,
  tMs: number,
  fix: { lat: number; lon: number; positioning: 'GPS' | 'LBS' },
  motion: { speed?: number; course?: number; acc?: boolean },
  values: SensorValues,
): DeviceReport {
  return {
    deviceId: d.deviceId,
    time: new Date(tMs).toISOString(),
    lat: round(fix.lat, 6),
    lon: round(fix.lon, 6),
    positioning: fix.positioning,
    network: '4G',
    ...(motion.speed === undefined ? {} : { speed: round(motion.speed, 1) }),
    ...(motion.course === undefined ? {} : { course: Math.round(motion.course) % 360 }),
    ...(motion.acc === undefined ? {} : { acc: motion.acc }),
    extraData: encodeExtraData(values),
  };
}

function stepVehicle(d: VehicleSim, tMs: number): DeviceReport {
  const s = shuttleAt(d.shuttle, tMs);
  // Parked at the end of a leg: engine off about half the stops, idling the others.
  const acc = s.moving || unit(d.key, s.leg, T.acc) >= 0.5;
  const opening = stopOpening(d, s, 0.6, [2 * MINUTE, 6 * MINUTE]);
  const openings = opening ? [opening] : [];
  const outside = outdoorC(s.lat, tMs);
  // An open reefer door lets the outside air in; half the gap is as far as it gets.
  const share = shareOf(openings, tMs, 10 * MINUTE, 12 * MINUTE);
  const temperature = d.setPointC + 0.8 * wander(d, 1, tMs, 20 * MINUTE) + 0.3 * wander(d, 2, tMs, 3 * MINUTE) + 0.5 * share * (outside - d.setPointC);
  const open = isOpen(openings, tMs);
  const halfMinute = Math.floor(tMs / (30 * SECOND));
  // Road shocks now and then on top of the ride.
  const shock = unit(d.key, halfMinute, T.bump) < 0.03 ? between(0.5, 1.5, d.key, halfMinute, T.bumpSize) : 0;
  const ride = 0.15 + (0.5 * s.speedKmh) / 90 + 0.15 * Math.abs(wander(d, 3, tMs, 20 * SECOND)) + shock;
  const idle = acc ? 0.06 + 0.03 * Math.abs(wander(d, 3, tMs, 20 * SECOND)) : 0.01 * Math.abs(wander(d, 3, tMs, 20 * SECOND));
  return report(d, tMs, trackerFix(d, s.lat, s.lon, tMs), { speed: s.speedKmh, course: s.course, acc }, {
    battery: sawtoothBattery(tMs, { periodMs: 3 * DAY, phaseMs: between(0, 3 * DAY, d.key, T.battery), low: 40, high: 100, chargeShare: 0.08 }),
    temperature: round(temperature, 1),
    humidity: clamp((d.frozen ? 60 : 85) + 4 * wander(d, 4, tMs, 45 * MINUTE) + 12 * share, 0, 100),
    light: open ? daylightLux(tMs) * between(0.3, 0.6, d.key, s.leg, T.light) : 0,
    vibration: round(s.moving ? ride : idle, 2),
    pressure: pressureKpa(s.lat, s.lon, tMs),
    mileage: d.odometerKm + s.drivenKm,
    door: open ? 'open' : 'closed',
    batteryTemperature: outside + (acc ? 8 : 3) + wander(d, 5, tMs, 30 * MINUTE),
  });
}

/** A cooling fault or a hot spot now and then: a rise of 3-8 C over 30-120 min, in about one 6 h slot of five. */
function excursionC(d: SimDevice, tMs: number): number {
  const slotMs = 6 * HOUR;
  const slot = Math.floor(tMs / slotMs);
  let rise = 0;
  for (const k of [slot - 1, slot]) {
    if (unit(d.key, k, T.excursion) >= 0.2) continue;
    const half = between(15, 60, d.key, k, T.excursionFor) * MINUTE;
    const mid = k * slotMs + between(0, 5 * HOUR, d.key, k, T.excursionAt) + half;
    if (Math.abs(tMs - mid) < half) rise += between(3, 8, d.key, k, T.excursionPeak) * 0.5 * (1 + Math.cos((Math.PI * (tMs - mid)) / half));
  }
  return rise;
}

function stepContainer(d: ContainerSim, tMs: number): DeviceReport {
  const s = d.shuttle ? shuttleAt(d.shuttle, tMs) : null;
  const lat = s?.lat ?? d.lat;
  const lon = s?.lon ?? d.lon;
  const moving = s?.moving ?? false;
  // Doors are opened for inspection while the container stands: at a stop, or now and then in the yard.
  const openings = s
    ? [stopOpening(d, s, 0.35, [5 * MINUTE, 20 * MINUTE])].filter((o): o is Opening => o !== null)
    : recentOpenings(d, tMs, 8 * HOUR, 1, 0.3, 7 * HOUR, [5 * MINUTE, 20 * MINUTE]);
  const outside = outdoorC(lat, tMs);
  const share = shareOf(openings, tMs, 10 * MINUTE, 15 * MINUTE);
  const open = isOpen(openings, tMs);
  const temperature =
    d.setPointC + 0.6 * wander(d, 1, tMs, 30 * MINUTE) + 0.2 * wander(d, 2, tMs, 5 * MINUTE) + excursionC(d, tMs) + 0.5 * share * (outside - d.setPointC);
  const still = 0.01 * Math.abs(wander(d, 3, tMs, 20 * SECOND));
  return report(d, tMs, { lat, lon, positioning: 'GPS' }, { speed: s?.speedKmh ?? 0, course: s?.course ?? 0 }, {
    battery: sawtoothBattery(tMs, { periodMs: 10 * DAY, phaseMs: between(0, 10 * DAY, d.key, T.battery), low: 25, high: 100, chargeShare: 0.05 }),
    temperature: round(temperature, 1),
    humidity: clamp((d.setPointC >= 0 ? 88 : 65) + 4 * wander(d, 4, tMs, 45 * MINUTE) + 10 * share, 0, 100),
    light: open ? daylightLux(tMs) * between(0.4, 0.8, d.key, Math.floor(tMs / HOUR), T.light) : 0,
    vibration: round(moving ? 0.1 + (0.4 * (s?.speedKmh ?? 0)) / 50 + 0.1 * Math.abs(wander(d, 3, tMs, 20 * SECOND)) : still, 2),
    pressure: pressureKpa(lat, lon, tMs),
    door: open ? 'open' : 'closed',
    batteryTemperature: outside + 1 + wander(d, 5, tMs, 30 * MINUTE),
  });
}

/** Defrost: the coils are heated for 30 min every 6 h (freezer) or 20 min every 8 h (chiller). */
function defrostC(d: ColdroomSim, tMs: number): number {
  const everyMs = d.freezer ? 6 * HOUR : 8 * HOUR;
  const forMs = d.freezer ? 30 * MINUTE : 20 * MINUTE;
  const p = (((tMs + between(0, everyMs, d.key, T.defrost)) % everyMs) + everyMs) % everyMs;
  return p < forMs ? (d.freezer ? 8 : 3) * 0.5 * (1 - Math.cos((2 * Math.PI * p) / forMs)) : 0;
}

/** The dock outside a cold room, C. */
const DOCK_C = 12;

function stepColdroom(d: ColdroomSim, tMs: number): DeviceReport {
  // A few openings an hour: at most one per 15 min, 20-150 s each.
  const openings = recentOpenings(d, tMs, 15 * MINUTE, 2, 0.75, 13 * MINUTE, [20 * SECOND, 150 * SECOND]);
  const share = shareOf(openings, tMs, 8 * MINUTE, 6 * MINUTE);
  const open = isOpen(openings, tMs);
  const temperature =
    d.setPointC + 0.4 * wander(d, 1, tMs, 20 * MINUTE) + 0.15 * wander(d, 2, tMs, 2 * MINUTE) + defrostC(d, tMs) + 0.5 * share * (DOCK_C - d.setPointC);
  const rounded = round(temperature, 1);
  return report(d, tMs, { lat: d.lat, lon: d.lon, positioning: 'GPS' }, {}, {
    battery: sawtoothBattery(tMs, { periodMs: 30 * DAY, phaseMs: between(0, 30 * DAY, d.key, T.battery), low: 25, high: 100, chargeShare: 0.005 }),
    temperature: rounded,
    humidity: clamp((d.freezer ? 70 : 85) + 3 * wander(d, 4, tMs, 45 * MINUTE) + 10 * share, 0, 100),
    // The room lights are on while the door is open (someone is inside).
    light: open ? 400 : 0,
    // Forklifts go in and out while the door is open.
    vibration: round(open ? 0.15 + 0.1 * Math.abs(wander(d, 3, tMs, 10 * SECOND)) : 0.01 * Math.abs(wander(d, 3, tMs, 20 * SECOND)), 2),
    pressure: pressureKpa(d.lat, d.lon, tMs),
    door: open ? 'open' : 'closed',
    // The logger hangs in the room: its battery is at room temperature.
    batteryTemperature: rounded + 1.5,
  });
}

/**
 * The device's report at `nowMs`. The model is a function of time, so stepping to `nowMs`
 * needs no history: whatever the interval since the last step, the device has moved on by
 * exactly that much wall-clock time.
 */
export function step(device: SimDevice, nowMs: number): DeviceReport {
  if (device.kind === 'vehicle') return stepVehicle(device, nowMs);
  if (device.kind === 'container') return stepContainer(device, nowMs);
  return stepColdroom(device, nowMs);
}
