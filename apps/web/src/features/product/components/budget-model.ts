// How a budget reads on the screens: minutes with one decimal, the bar's colour by state.
import type { Budget } from '@iotc/shared/product';

export const minutesText = (m: number) => (Math.round(m * 10) / 10).toString();

export const STATE_COLORS: Record<Budget['above']['state'], string> = { ok: 'success', alert: 'warning', exhausted: 'error' };
export const STATE_STROKE: Record<Budget['above']['state'], string> = { ok: '#52c41a', alert: '#faad14', exhausted: '#f5222d' };

/** The bar's share (0..100) of a budget: used / budget, a 0-minute budget full when used. */
export const barPercent = (k: Budget['above']) => Math.min(100, Math.round(k.percent * 10) / 10);
