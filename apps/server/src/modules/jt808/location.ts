// JT/T 808 location bodies: the 0x0200 report (also inside 0x0201 and 0x0704), its alarm and
// status bits and its additional items, and the 0x0704 batch. Items the standard defines with a
// plain number are decoded; every other item is kept raw (id -> hex) so that a per-model vendor
// mapping (temperature probes and the like) can be applied by the gateway later.
import { Reader, Writer } from './binary.ts';
import { Jt808Error } from './errors.ts';

/**
 * The alarm flag bits of JT/T 808-2013/2019 (table 24/25), by bit number, as stable codes. 2011
 * leaves bits 12-17, 30 and 31 reserved and calls bit 29 "collision or rollover"; 2019 adds
 * bits 15-17 and renames bit 3 "dangerous driving". A report does not say its edition (2011 and
 * 2013 headers are alike), so one table serves all: a 2011 terminal never sets a reserved bit.
 */
export const ALARM_CODES = [
  'sos', // 0 emergency alarm, raised by the alarm switch
  'overspeed', // 1
  'fatigue-driving', // 2
  'danger-warning', // 3 (2019: dangerous driving behaviour)
  'gnss-module-fault', // 4
  'gnss-antenna-disconnected', // 5 not connected or cut
  'gnss-antenna-short-circuit', // 6
  'power-under-voltage', // 7 main power
  'power-cut', // 8 main power off
  'display-fault', // 9 LCD or display
  'tts-fault', // 10
  'camera-fault', // 11
  'ic-card-module-fault', // 12 road transport certificate IC card module (2013)
  'overspeed-warning', // 13 (2013)
  'fatigue-warning', // 14 (2013)
  'illegal-driving', // 15 driving against the rules (2019)
  'tire-pressure-warning', // 16 (2019)
  'right-turn-blind-spot', // 17 right-turn blind spot abnormal (2019)
  'driving-time-exceeded', // 18 accumulated driving time of the day
  'parking-timeout', // 19
  'area-in-out', // 20
  'route-in-out', // 21
  'route-time-abnormal', // 22 route section driving time too short or too long
  'route-deviation', // 23
  'vss-fault', // 24 vehicle speed sensor
  'fuel-abnormal', // 25
  'stolen', // 26 vehicle stolen (anti-theft device)
  'illegal-ignition', // 27
  'illegal-displacement', // 28
  'collision', // 29 collision warning (2011: collision or rollover)
  'rollover', // 30 rollover warning (2013)
  'illegal-door-open', // 31 (2013)
] as const;

export type AlarmCode = (typeof ALARM_CODES)[number];

/** Status bits the platform uses; the full word is kept in `status`. */
export const STATUS = { acc: 1 << 0, positioned: 1 << 1, south: 1 << 2, west: 1 << 3 } as const;

/** Additional item ids the codec decodes. */
export const ITEM = { mileage: 0x01, fuel: 0x02, recorderSpeed: 0x03, signal: 0x30, satellites: 0x31 } as const;

export interface Location {
  /** Alarm flags as sent. */
  alarm: number;
  /** The set alarm bits as codes, in bit order. */
  alarms: AlarmCode[];
  /** Status flags as sent. */
  status: number;
  acc: boolean;
  positioned: boolean;
  /** Degrees, negative south (status bit 2). */
  latitude: number;
  /** Degrees, negative west (status bit 3). */
  longitude: number;
  /** Metres. The standard says WORD; read signed, as terminals below sea level send it. */
  altitude: number;
  speedKmh: number;
  /** Degrees from north, 0-359. */
  direction: number;
  /** Device time (sent as GMT+8). Null when the six BCD fields are not a time (no fix yet: zeros). */
  time: Date | null;
  /** 0x01, 0.1 km resolution. */
  mileageKm?: number;
  /** 0x02, 0.1 L resolution. */
  fuelLitres?: number;
  /** 0x03, speed from the driving recorder, 0.1 km/h resolution. */
  recorderSpeedKmh?: number;
  /** 0x30, wireless signal strength. */
  signal?: number;
  /** 0x31, GNSS satellites in use. */
  satellites?: number;
  /** Every other item, and a known id whose length is not the standard's: "0x36" -> value hex. */
  extras: Record<string, string>;
  /** Bytes after the last whole item (a terminal that miscounted an item length), as hex. */
  trailing?: string;
}

/** What an encoder needs: the flags words are optional and the named bits override them. */
export interface LocationInit {
  alarm?: number;
  status?: number;
  acc?: boolean;
  positioned?: boolean;
  latitude: number;
  longitude: number;
  altitude?: number;
  speedKmh?: number;
  direction?: number;
  time: Date | null;
  mileageKm?: number;
  fuelLitres?: number;
  recorderSpeedKmh?: number;
  signal?: number;
  satellites?: number;
  extras?: Record<string, string>;
}

export function alarmCodes(flags: number): AlarmCode[] {
  return ALARM_CODES.filter((_, bit) => (flags >>> bit) & 1);
}

export function alarmFlags(codes: readonly AlarmCode[]): number {
  return codes.reduce((flags, code) => (flags | (1 << ALARM_CODES.indexOf(code))) >>> 0, 0);
}

const GMT8_MS = 8 * 3600_000;

/** BCD YYMMDDhhmmss in GMT+8 (years 2000-2099) as a UTC time; null when not a valid time. */
export function decodeTime(bcd: Buffer): Date | null {
  if (bcd.length !== 6) return null;
  // The digits straight from the nibbles (every location has a time: no strings made for it).
  let bad = false;
  const two = (i: number) => {
    const b = bcd[i]!;
    const hi = b >> 4;
    const lo = b & 0x0f;
    if (hi > 9 || lo > 9) bad = true;
    return hi * 10 + lo;
  };
  const y = two(0);
  const mo = two(1);
  const d = two(2);
  const h = two(3);
  const mi = two(4);
  const s = two(5);
  if (bad) return null;
  const ms = Date.UTC(2000 + y, mo - 1, d, h, mi, s);
  const t = new Date(ms);
  // Date.UTC rolls 31 February over into March; a terminal that sends it has no valid time.
  if (t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return new Date(ms - GMT8_MS);
}

export function encodeTime(time: Date | null): Buffer {
  if (time === null) return Buffer.alloc(6);
  const t = new Date(time.getTime() + GMT8_MS);
  const year = t.getUTCFullYear();
  if (year < 2000 || year > 2099) throw new Jt808Error('cannot-encode', `${time.toISOString()} is outside 2000-2099`);
  const fields = [year - 2000, t.getUTCMonth() + 1, t.getUTCDate(), t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds()];
  return Buffer.from(fields.map((n) => String(n).padStart(2, '0')).join(''), 'hex');
}

export function itemKey(id: number): string {
  return `0x${id.toString(16).padStart(2, '0')}`;
}

/** The fixed part (28 bytes) and the additional items of a 0x0200 body. */
export function decodeLocation(body: Buffer): Location {
  const r = new Reader(body, 'location');
  const alarm = r.u32();
  const status = r.u32();
  const lat = r.u32();
  const lon = r.u32();
  const altitude = r.bytes(2).readInt16BE(0);
  const speed = r.u16();
  const direction = r.u16();
  const time = decodeTime(r.bytes(6));
  const location: Location = {
    alarm,
    alarms: alarmCodes(alarm),
    status,
    acc: (status & STATUS.acc) !== 0,
    positioned: (status & STATUS.positioned) !== 0,
    latitude: signed(lat, (status & STATUS.south) !== 0),
    longitude: signed(lon, (status & STATUS.west) !== 0),
    altitude,
    speedKmh: speed / 10,
    direction,
    time,
    extras: {},
  };
  while (r.remaining >= 2) {
    const at = r.offset;
    const id = r.u8();
    const length = r.u8();
    if (length > r.remaining) {
      location.trailing = body.subarray(at).toString('hex');
      return location;
    }
    readItem(location, id, r.bytes(length));
  }
  if (r.remaining > 0) location.trailing = r.rest().toString('hex');
  return location;
}

function signed(raw: number, negative: boolean): number {
  const degrees = raw / 1e6;
  return negative && raw !== 0 ? -degrees : degrees;
}

function readItem(location: Location, id: number, value: Buffer): void {
  const n = value.length;
  if (id === ITEM.mileage && n === 4) location.mileageKm = value.readUInt32BE(0) / 10;
  else if (id === ITEM.fuel && n === 2) location.fuelLitres = value.readUInt16BE(0) / 10;
  else if (id === ITEM.recorderSpeed && n === 2) location.recorderSpeedKmh = value.readUInt16BE(0) / 10;
  else if (id === ITEM.signal && n === 1) location.signal = value[0]!;
  else if (id === ITEM.satellites && n === 1) location.satellites = value[0]!;
  else location.extras[itemKey(id)] = value.toString('hex');
}

function setBit(word: number, mask: number, on: boolean): number {
  return (on ? word | mask : word & ~mask) >>> 0;
}

export function encodeLocation(init: LocationInit): Buffer {
  let status = init.status ?? 0;
  if (init.acc !== undefined) status = setBit(status, STATUS.acc, init.acc);
  if (init.positioned !== undefined) status = setBit(status, STATUS.positioned, init.positioned);
  // A zero coordinate has no sign: the bit the caller gave is kept.
  if (init.latitude !== 0) status = setBit(status, STATUS.south, init.latitude < 0);
  if (init.longitude !== 0) status = setBit(status, STATUS.west, init.longitude < 0);
  const w = new Writer()
    .u32((init.alarm ?? 0) >>> 0)
    .u32(status)
    .u32(Math.round(Math.abs(init.latitude) * 1e6))
    .u32(Math.round(Math.abs(init.longitude) * 1e6));
  const altitude = Buffer.alloc(2);
  altitude.writeInt16BE(Math.round(init.altitude ?? 0));
  w.raw(altitude)
    .u16(Math.round((init.speedKmh ?? 0) * 10))
    .u16(init.direction ?? 0)
    .raw(encodeTime(init.time));

  const items = new Map<number, Buffer>();
  const word = (n: number, bytes: number): Buffer => {
    const b = Buffer.alloc(bytes);
    b.writeUIntBE(n, 0, bytes);
    return b;
  };
  if (init.mileageKm !== undefined) items.set(ITEM.mileage, word(Math.round(init.mileageKm * 10), 4));
  if (init.fuelLitres !== undefined) items.set(ITEM.fuel, word(Math.round(init.fuelLitres * 10), 2));
  if (init.recorderSpeedKmh !== undefined) items.set(ITEM.recorderSpeed, word(Math.round(init.recorderSpeedKmh * 10), 2));
  if (init.signal !== undefined) items.set(ITEM.signal, word(init.signal, 1));
  if (init.satellites !== undefined) items.set(ITEM.satellites, word(init.satellites, 1));
  for (const [key, hex] of Object.entries(init.extras ?? {})) {
    const id = /^0x[0-9a-f]{2}$/i.test(key) ? Number(key) : NaN;
    if (Number.isNaN(id) || !/^([0-9a-f]{2})*$/i.test(hex) || hex.length > 0x1fe) {
      throw new Jt808Error('cannot-encode', `additional item ${key} = ${hex}`);
    }
    items.set(id, Buffer.from(hex, 'hex'));
  }
  // Ascending ids, the order terminals send them in.
  for (const id of [...items.keys()].sort((a, b) => a - b)) {
    const value = items.get(id)!;
    w.u8(id).u8(value.length).raw(value);
  }
  return w.done();
}

export interface LocationBatch {
  /** 0 normal batch, 1 blind-area re-send. */
  type: number;
  items: Location[];
}

/** 0x0704: count WORD, type BYTE, then per item a WORD length and a 0x0200 body. */
export function decodeLocationBatch(body: Buffer): LocationBatch {
  const r = new Reader(body, '0x0704 body');
  const count = r.u16();
  const type = r.u8();
  const items: Location[] = [];
  for (let i = 0; i < count; i++) items.push(decodeLocation(r.bytes(r.u16())));
  if (r.remaining > 0) throw new Jt808Error('long-body', `0x0704 body: ${r.remaining} bytes after its ${count} items`);
  return { type, items };
}

export function encodeLocationBatch(batch: { type: number; items: LocationInit[] }): Buffer {
  const w = new Writer().u16(batch.items.length).u8(batch.type);
  for (const item of batch.items) {
    const body = encodeLocation(item);
    w.u16(body.length).raw(body);
  }
  return w.done();
}

/** 0x0201, the answer to a 0x8201 position query. */
export interface PositionAnswer {
  serial: number;
  location: Location;
}

export function decodePositionAnswer(body: Buffer): PositionAnswer {
  const r = new Reader(body, '0x0201 body');
  const serial = r.u16();
  return { serial, location: decodeLocation(r.rest()) };
}

export function encodePositionAnswer(answer: { serial: number; location: LocationInit }): Buffer {
  return new Writer().u16(answer.serial).raw(encodeLocation(answer.location)).done();
}
