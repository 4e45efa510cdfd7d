// The storage screen's figures as people read them: bytes in the largest unit that keeps a whole
// number in front (B, kB, MB, GB, TB, PB: powers of 1000, as the units' names say), counts
// grouped, shares as percentages, in the interface language (Intl's unit formats).
import type { Lang } from '@iotc/shared/i18n';
import type { StorageRow } from '@iotc/shared/storage';

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;
const locale = (lang: Lang) => (lang === 'zh' ? 'zh-CN' : 'en-US');

function scaled(bytes: number): { value: number; unit: (typeof UNITS)[number] } {
  let k = 0;
  let value = bytes;
  while (Math.abs(value) >= 1000 && k < UNITS.length - 1) {
    value /= 1000;
    k++;
  }
  return { value, unit: UNITS[k]! };
}

/** 1234567 -> "1.2 MB"; `perDay` gives "1.2 MB/d" ("1.2 MB/天"). Null (unknown) gives "". */
export function formatBytes(bytes: number | null, lang: Lang, opts: { perDay?: boolean } = {}): string {
  if (bytes === null) return '';
  const { value, unit } = scaled(bytes);
  // Intl writes the plain unit as "byte" in English ("419 byte"); B, as the larger units' kB, MB.
  if (unit === 'byte') return `${new Intl.NumberFormat(locale(lang), { maximumFractionDigits: 1 }).format(value)} B${opts.perDay ? (lang === 'zh' ? '/天' : '/d') : ''}`;
  return new Intl.NumberFormat(locale(lang), {
    style: 'unit',
    unit: opts.perDay ? `${unit}-per-day` : unit,
    maximumFractionDigits: Math.abs(value) < 10 ? 2 : 1,
  }).format(value);
}

export function formatCount(n: number, lang: Lang): string {
  return new Intl.NumberFormat(locale(lang)).format(n);
}

export function formatShare(share: number | null, lang: Lang): string {
  return share === null ? '' : new Intl.NumberFormat(locale(lang), { style: 'percent', maximumFractionDigits: 1 }).format(share);
}

/** Days left, whole days ("120 days", "120天"); null: unknown. */
export function formatDays(days: number | null, lang: Lang): string | null {
  return days === null ? null : new Intl.NumberFormat(locale(lang), { style: 'unit', unit: 'day', unitDisplay: 'long', maximumFractionDigits: 0 }).format(Math.floor(days));
}

/** A table row: the organisation and its figures as text. */
export interface StorageRowView {
  orgId: string;
  orgName: string;
  rowReadings: string;
  packedReadings: string;
  packs: string;
  bytes: string;
  rowBytes: string;
  packBytes: string;
  bytesPerReading: string;
  growthPerDay: string;
  share: string;
  day: string;
}

export function storageRowView(r: StorageRow, lang: Lang): StorageRowView {
  return {
    orgId: r.orgId,
    orgName: r.orgName,
    rowReadings: formatCount(r.rowReadings, lang),
    packedReadings: formatCount(r.packedReadings, lang),
    packs: formatCount(r.packs, lang),
    bytes: formatBytes(r.rowBytes + r.packBytes, lang),
    rowBytes: formatBytes(r.rowBytes, lang),
    packBytes: formatBytes(r.packBytes, lang),
    bytesPerReading: formatBytes(r.bytesPerReading, lang),
    growthPerDay: formatBytes(r.growthPerDay, lang, { perDay: true }),
    share: formatShare(r.share, lang),
    day: r.day,
  };
}
