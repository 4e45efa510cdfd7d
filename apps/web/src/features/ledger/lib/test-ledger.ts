// Test data for the ledger screens, made with the shared ledger functions the server uses: a
// fresh Ed25519 key, sensor-minute, custody and alarm leaves in an RFC 6962 tree, a signed
// checkpoint and inclusion proofs, as a records answer. Used by tests only.
import type { LedgerItem, RecordsAnswer } from '@iotc/shared/ledger/api';
import { toBase64 } from '@iotc/shared/ledger/bytes';
import { formatCheckpoint, generateNoteKeys, parseSignerKey, signNote } from '@iotc/shared/ledger/checkpoint';
import { encodeLeaf, LEAF_VERSION, sensorMinuteRecord, type LedgerRecord, type Reading } from '@iotc/shared/ledger/leaf';
import { inclusionProof, leafHash, rootOf } from '@iotc/shared/ledger/merkle';

export const ORIGIN = 'iotc.test/ledger';
export const ORG = '0b6f3c1e-8d0a-4c47-9a59-2f1e6d3b7a10';
export const DEVICE_REF = '00000000-0000-4000-8000-0000000000d1';
export const BASE = Date.parse('2026-11-24T06:00:00.000Z');

const iso = (ms: number) => new Date(ms).toISOString();
/** When the test checkpoint was signed, as the server reports it. */
export const SIGNED_AT = iso(BASE + 5 * 60_000);

export function readingsOf(minute: number, temps: number[]): Reading[] {
  return temps.map((temperature, i) => ({
    time: iso(minute + 5_000 + i * 10_000),
    deviceTime: iso(minute + 3_000 + i * 10_000),
    lat: 31.2,
    lon: 121.5,
    speed: 40,
    course: null,
    positioning: 'GPS',
    network: '4G',
    sensors: { temperature, humidity: 55 },
  }));
}

interface Source {
  ref: string;
  record: LedgerRecord;
  readings?: Reading[];
}

/**
 * Three sensor minutes, a custody event and an alarm; the checkpoint covers all but the last
 * `pending` leaves. The answer's readings and current records are what the rows say now.
 */
export async function makeLedger(opts: { pending?: number; removal?: { from: number; to: number; deviceId?: string } } = {}) {
  const { signerKey, verifierKey } = await generateNoteKeys(ORIGIN);
  const { seed } = await parseSignerKey(signerKey);
  const sources: Source[] = [0, 1, 2].map((i) => {
    const minute = BASE + i * 60_000;
    const readings = readingsOf(minute, [-18 - i, -18.5 - i, -19 - i]);
    return { ref: `sensor:${DEVICE_REF}:${iso(minute)}`, record: sensorMinuteRecord(ORG, 'LG00000001', iso(minute), readings), readings };
  });
  sources.push({
    ref: 'custody:task.started:t1',
    record: { v: LEAF_VERSION, kind: 'custody', orgId: ORG, event: 'task.started', subjectId: 'task-1', time: iso(BASE + 30_000), actor: 'demo', fields: { code: 'TT-20261124-0001', status: 'in_transit' } },
  });
  sources.push({
    ref: 'alarm:opened:a1:e1',
    record: { v: LEAF_VERSION, kind: 'alarm', orgId: ORG, event: 'opened', alarmId: 'a1', deviceId: 'LG00000001', time: iso(BASE + 90_000), fields: { type: 'temp_high', threshold: -15 } },
  });
  // A retention removal logged last: the readings stored in [from, to) were removed under a rule.
  if (opts.removal) {
    const { from, to, deviceId = 'LG00000001' } = opts.removal;
    sources.push({
      ref: 'retention:r1',
      record: { v: LEAF_VERSION, kind: 'retention.removal', orgId: ORG, deviceId, from: iso(from), to: iso(to), readings: 6, policy: 'Packs kept 365 days (Demo)', removedAt: iso(BASE + 4 * 60_000) },
    });
  }
  const datas = sources.map((s) => encodeLeaf(s.record));
  const hashes = datas.map(leafHash);
  const size = hashes.length - (opts.pending ?? 0);
  const note = await signNote(formatCheckpoint({ origin: ORIGIN, size, rootHash: rootOf(hashes.slice(0, size)) }), ORIGIN, seed);
  const items: LedgerItem[] = sources.map((s, index) => ({
    index,
    ref: s.ref,
    kind: s.record.kind,
    data: toBase64(datas[index]!),
    leafHash: toBase64(hashes[index]!),
    record: s.record,
    proof: index < size ? inclusionProof(hashes, index, size).map(toBase64) : null,
    ...(s.record.kind === 'sensor.minute' ? { readings: s.readings } : s.record.kind === 'retention.removal' ? {} : { currentRecord: s.record }),
  }));
  const answer: RecordsAnswer = { checkpoint: note, signedAt: SIGNED_AT, verifierKey, origin: ORIGIN, items, next: null };
  return { answer, seed, verifierKey };
}

/**
 * The answer with the readings of these items gone (all, or all but `keep` of them), each
 * carrying the answer's last leaf as the removal that spans it, as the server attaches it.
 */
export function removeReadings(answer: RecordsAnswer, indexes: number[], keep = 0): RecordsAnswer {
  const last = answer.items.at(-1)!;
  return {
    ...answer,
    items: answer.items.map((item) =>
      indexes.includes(item.index) ? { ...item, readings: item.readings!.slice(0, keep), removal: { index: last.index, data: last.data, proof: last.proof } } : item,
    ),
  };
}

/** The answer with one stored reading of item `index` changed, as a database edit would change it. */
export function tamperReading(answer: RecordsAnswer, index: number, temperature: number): RecordsAnswer {
  return {
    ...answer,
    items: answer.items.map((item) =>
      item.index === index && item.readings
        ? { ...item, readings: item.readings.map((r, i) => (i === 1 ? { ...r, sensors: { ...(r.sensors as object), temperature } } : r)) }
        : item,
    ),
  };
}
