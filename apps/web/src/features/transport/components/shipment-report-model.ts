// What the shipment report dialog shows, worked out without React: which tasks have a report,
// durations as "1 h 05 min" / "1小时05分", shares as percentages, temperatures with their unit.
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { TaskStatus } from '@iotc/shared/transport';

/** A report covers the road: tasks that started (a cancelled one only if it had started). */
export function hasShipmentReport(task: { status: TaskStatus; startedAt: string | null }): boolean {
  if (task.status === 'in_transit' || task.status === 'arrived' || task.status === 'completed') return true;
  return task.status === 'cancelled' && task.startedAt !== null;
}

/**
 * A duration split for display: under a minute in seconds, else whole minutes (rounded), with
 * hours and days when there are any; minutes (and hours after days) two digits after a larger unit.
 */
export type DurationParts = { unit: 's'; s: number } | { unit: 'm'; m: number } | { unit: 'hm'; h: number; m: string } | { unit: 'dhm'; d: number; h: string; m: string };

const two = (n: number) => String(n).padStart(2, '0');

export function durationParts(seconds: number): DurationParts {
  const s = Math.max(0, Number.isFinite(seconds) ? seconds : 0);
  if (s > 0 && s < 60) return { unit: 's', s: Math.round(s) };
  const minutes = Math.round(s / 60);
  if (minutes < 60) return { unit: 'm', m: minutes };
  const m = minutes % 60;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { unit: 'hm', h: hours, m: two(m) };
  return { unit: 'dhm', d: Math.floor(hours / 24), h: two(hours % 24), m: two(m) };
}

/** A share 0..1 as a percentage with at most one decimal ("87.5%", "100%"); '-' when unknown. */
export function percent(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return '-';
  return `${Number((share * 100).toFixed(1))}%`;
}

/** Degrees Celsius with one decimal; '-' when unknown. */
export function celsius(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '-' : `${value.toFixed(1)} °C`;
}

/** An instant given as epoch milliseconds (the statistics' times), in the user's time zone. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  return dayjs(ms).format(DATETIME_FORMAT);
}
