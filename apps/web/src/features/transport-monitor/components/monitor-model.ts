// The status monitor's pure rules: abnormal tasks first (the server sorts so too; a keyword or a
// refresh must not reorder them otherwise), and the numbers as the list shows them.
import type { TaskDetail } from '@iotc/shared/transport';

/** Abnormal first, then by planned arrival (soonest first, none last), then by code. */
export function orderTasks(tasks: readonly TaskDetail[]): TaskDetail[] {
  const arrival = (t: TaskDetail) => (t.plannedArrival ? Date.parse(t.plannedArrival) : Infinity);
  return [...tasks].sort((a, b) => Number(b.abnormal) - Number(a.abnormal) || arrival(a) - arrival(b) || a.code.localeCompare(b.code));
}

/** Kilometres with one decimal under 100 km, whole ones above; '-' when unknown. */
export function formatKm(metres: number | null | undefined): string {
  if (metres === null || metres === undefined || !Number.isFinite(metres)) return '-';
  const km = metres / 1000;
  return km < 100 ? km.toFixed(1) : String(Math.round(km));
}

/** Progress as a whole percentage within 0..100; null when unknown. */
export function percent(progress: number | null | undefined): number | null {
  if (progress === null || progress === undefined || !Number.isFinite(progress)) return null;
  return Math.round(Math.min(1, Math.max(0, progress)) * 100);
}

export const ABNORMAL_COLOR = '#f5222d';
export const NORMAL_COLOR = '#1677ff';
export const ORIGIN_COLOR = '#52c41a';
export const DESTINATION_COLOR = '#722ed1';
