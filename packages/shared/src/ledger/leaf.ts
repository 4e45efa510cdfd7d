/**
 * The ledger's canonical leaf encoding, version 1: the bytes of every leaf, whose RFC 6962 leaf
 * hash SHA-256(0x00 || bytes) is what the tree commits to. An auditor holding a record and this
 * description can rebuild the bytes and check them against an inclusion proof.
 *
 * Encoding: leaf bytes = UTF-8 of the RFC 8785 (JCS) canonical JSON of one record object:
 * object keys sorted by UTF-16 code units, no whitespace, strings and numbers printed as
 * ECMAScript's JSON.stringify prints them. Every record has `"v": 1` (this version) and a
 * `"kind"`. Unknown keys are refused, so the same record always gives the same bytes and two
 * different records never do. A decoder refuses bytes that are not exactly the canonical form.
 *
 * Common field formats:
 * - `orgId`, `deviceId`, `subjectId`, `alarmId`, `actor`: non-empty strings (our ids: UUIDs for
 *   organisations, the IMEI/serial for devices, the row id of the task, warehouse or alarm).
 * - times: ISO 8601 UTC with milliseconds, exactly as Date.prototype.toISOString prints them
 *   (`2026-11-24T06:31:00.000Z`), so text order is time order.
 * - `fields`: a JSON object of extra values (strings, finite numbers, booleans, null, arrays,
 *   objects). Numbers are IEEE doubles (see canonical-json.ts): decimals that must stay exact
 *   beyond ~15 significant digits, and integers beyond 2^53, belong in strings.
 *
 * Kinds:
 * (a) `sensor.minute` — one device's sensor readings for one minute, as a digest:
 *     { v: 1, kind: "sensor.minute", orgId, deviceId, minute, count, readingsSha256 }
 *     `minute` is the minute's start (seconds and milliseconds zero); `count` the number of
 *     readings (at least 1); `readingsSha256` the lowercase hex SHA-256 of the UTF-8 JCS text of
 *     the array of that minute's readings sorted by their `time` field (ties broken by their own
 *     canonical text), each reading a JSON object with an ISO `time` inside the minute.
 *     See `sensorMinuteRecord`.
 * (b) `custody` — a chain-of-custody event:
 *     { v: 1, kind: "custody", orgId, event, subjectId, time, actor, fields }
 *     `event` is one of task.created, task.started, task.ended, task.handover, warehouse.in,
 *     warehouse.out, record.signed; `subjectId` the task or warehouse record (record.signed: the
 *     signed record, a task for its GSP record and shipment report); `actor` who did it.
 *     record.signed (an electronic signature) has fields { signatureId, recordType, meaning,
 *     signerName, method, recordHash }: `recordHash` the SHA-256 of the record as signed.
 * (c) `alarm` — an alarm opened or closed:
 *     { v: 1, kind: "alarm", orgId, event, alarmId, deviceId, time, fields }
 *     `event` is opened or closed.
 * (d) `retention.removal` — readings removed by a retention rule (issue 24):
 *     { v: 1, kind: "retention.removal", orgId, deviceId, from, to, readings, policy, removedAt }
 *     The device's readings STORED (received) in [from, to) (minute starts) were removed, at
 *     `removedAt`, under `policy` (the rule in words, as it was that day); `readings` is how many.
 *     A sensor minute of that device in that span whose readings are gone verifies as "removed
 *     under policy X on date Y", not as changed: the removal is itself logged, dated and signed.
 *
 * Example (kind b; one line, no spaces, here wrapped):
 * {"actor":"user-7","event":"task.handover","fields":{"note":null,"seals":["S1","S2"],"signed":true,
 *  "temperature":-18.5,"to":"user-9"},"kind":"custody","orgId":"0b6f3c1e-8d0a-4c47-9a59-2f1e6d3b7a10",
 *  "subjectId":"task-42","time":"2026-11-24T06:31:12.345Z","v":1}
 */
import { z } from 'zod';
import { sha256 } from '@noble/hashes/sha2';
import { bytesEqual, fromUtf8, toHex, utf8 } from './bytes.ts';
import { canonicalJson, type JsonValue } from './canonical-json.ts';
import { leafHash, type Hash } from './merkle.ts';

export const LEAF_VERSION = 1;

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const isoTime = z.string().refine((s) => ISO_UTC.test(s) && !Number.isNaN(Date.parse(s)) && new Date(s).toISOString() === s, {
  message: 'expected an ISO 8601 UTC time with milliseconds',
});
const minuteStart = isoTime.refine((s) => s.endsWith(':00.000Z'), { message: 'expected the start of a minute' });
const id = z.string().min(1).max(200);
/** Any JSON value: one instance, recursive, so the OpenAPI document names it once (JsonValue). */
export const jsonValueSchema = z.json();
const fields = z.record(z.string(), jsonValueSchema);

export const CUSTODY_EVENTS = ['task.created', 'task.started', 'task.ended', 'task.handover', 'warehouse.in', 'warehouse.out', 'record.signed'] as const;
export const ALARM_EVENTS = ['opened', 'closed'] as const;

export const sensorMinuteRecordSchema = z.strictObject({
  v: z.literal(LEAF_VERSION),
  kind: z.literal('sensor.minute'),
  orgId: id,
  deviceId: id,
  minute: minuteStart,
  count: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  readingsSha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export const custodyRecordSchema = z.strictObject({
  v: z.literal(LEAF_VERSION),
  kind: z.literal('custody'),
  orgId: id,
  event: z.enum(CUSTODY_EVENTS),
  subjectId: id,
  time: isoTime,
  actor: id,
  fields,
});

export const alarmRecordSchema = z.strictObject({
  v: z.literal(LEAF_VERSION),
  kind: z.literal('alarm'),
  orgId: id,
  event: z.enum(ALARM_EVENTS),
  alarmId: id,
  deviceId: id,
  time: isoTime,
  fields,
});

export const retentionRemovalRecordSchema = z
  .strictObject({
    v: z.literal(LEAF_VERSION),
    kind: z.literal('retention.removal'),
    orgId: id,
    deviceId: id,
    from: minuteStart,
    to: minuteStart,
    readings: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    policy: z.string().min(1).max(500),
    removedAt: isoTime,
  })
  .refine((r) => r.from < r.to, { message: 'expected from before to', path: ['to'] });

export const ledgerRecordSchema = z.discriminatedUnion('kind', [sensorMinuteRecordSchema, custodyRecordSchema, alarmRecordSchema, retentionRemovalRecordSchema]);

export type SensorMinuteRecord = z.infer<typeof sensorMinuteRecordSchema>;
export type CustodyRecord = z.infer<typeof custodyRecordSchema>;
export type AlarmRecord = z.infer<typeof alarmRecordSchema>;
export type RetentionRemovalRecord = z.infer<typeof retentionRemovalRecordSchema>;
export type LedgerRecord = z.infer<typeof ledgerRecordSchema>;

export class LeafError extends Error {
  override name = 'LeafError';
}

function check(record: unknown): LedgerRecord {
  const r = ledgerRecordSchema.safeParse(record);
  if (!r.success) throw new LeafError(`not a ledger record: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return r.data;
}

function canonical(value: unknown): string {
  try {
    return canonicalJson(value);
  } catch (e) {
    throw new LeafError(`not canonical JSON: ${(e as Error).message}`);
  }
}

/** The leaf bytes of a record. Throws LeafError for a record outside the format. */
export function encodeLeaf(record: LedgerRecord): Uint8Array {
  const text = canonical(check(record));
  // Validation must not have changed anything (an own "__proto__" key, for one, does not survive
  // it): what is hashed is exactly what the caller gave.
  if (canonical(record) !== text) throw new LeafError('record does not survive validation unchanged');
  return utf8(text);
}

/** The record in leaf bytes; throws LeafError unless the bytes are exactly a canonical record. */
export function decodeLeaf(bytes: Uint8Array): LedgerRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fromUtf8(bytes));
  } catch {
    throw new LeafError('leaf is not UTF-8 JSON');
  }
  const record = check(parsed);
  if (!bytesEqual(utf8(canonical(record)), bytes)) throw new LeafError('leaf is not in canonical form');
  return record;
}

/** The RFC 6962 leaf hash of a record. */
export function recordLeafHash(record: LedgerRecord): Hash {
  return leafHash(encodeLeaf(record));
}

export interface Reading {
  time: string;
  [field: string]: JsonValue;
}

/** SHA-256 (hex) of the canonical JSON of the readings sorted by time, and their count. */
export function readingsDigest(readings: readonly Reading[]): { count: number; readingsSha256: string } {
  const keyed = readings.map((r) => {
    if (typeof r.time !== 'string' || !isoTime.safeParse(r.time).success) throw new LeafError('every reading needs an ISO time');
    return { time: r.time, text: canonicalJson(r) };
  });
  keyed.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  const text = `[${keyed.map((k) => k.text).join(',')}]`;
  return { count: readings.length, readingsSha256: toHex(sha256(utf8(text))) };
}

/** Builds the kind (a) record for one device-minute; every reading must lie inside the minute. */
export function sensorMinuteRecord(orgId: string, deviceId: string, minute: string, readings: readonly Reading[]): SensorMinuteRecord {
  if (readings.length === 0) throw new LeafError('a sensor minute needs at least one reading');
  const start = Date.parse(minute);
  for (const r of readings) {
    const t = Date.parse(r.time);
    if (!(t >= start && t < start + 60_000)) throw new LeafError(`reading at ${r.time} is outside the minute ${minute}`);
  }
  return sensorMinuteRecordSchema.parse({ v: LEAF_VERSION, kind: 'sensor.minute', orgId, deviceId, minute, ...readingsDigest(readings) });
}
