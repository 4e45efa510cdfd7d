// What the shipment report dialog shows, worked out without React: which tasks have a report,
// shares as percentages, temperatures with their unit (durations: @iotc/shared/format).
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { TaskStatus } from '@iotc/shared/transport';

/** A report covers the road: tasks that started (a cancelled one only if it had started). */
export function hasShipmentReport(task: { status: TaskStatus; startedAt: string | null }): boolean {
  if (task.status === 'in_transit' || task.status === 'arrived' || task.status === 'completed') return true;
  return task.status === 'cancelled' && task.startedAt !== null;
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
