// The screen's address (kind, asset, period, date) and how the record's numbers are written,
// kept apart from the page so they are tested without rendering.
import dayjs from 'dayjs';
import { GSP_ASSET_KINDS, GSP_PERIODS, isGspDate, type GspAssetKind, type GspPeriod } from '@iotc/shared/gsp-report';
import type { GspRequest } from '../api/temperature-report.ts';

export interface GspFilters {
  kind: GspAssetKind;
  assetId: string | undefined;
  period: GspPeriod;
  date: string;
}

const today = (period: GspPeriod) => dayjs().format(period === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM');

export function parseGspFilters(params: URLSearchParams): GspFilters {
  const kind = (GSP_ASSET_KINDS as readonly string[]).includes(params.get('kind') ?? '') ? (params.get('kind') as GspAssetKind) : 'cold_room';
  const period = (GSP_PERIODS as readonly string[]).includes(params.get('period') ?? '') ? (params.get('period') as GspPeriod) : 'day';
  const date = params.get('date') ?? '';
  return { kind, assetId: params.get('assetId') || undefined, period, date: isGspDate(period, date) ? date : today(period) };
}

export function writeGspFilters(prev: URLSearchParams, f: GspFilters): URLSearchParams {
  const next = new URLSearchParams(prev);
  next.set('kind', f.kind);
  if (f.assetId) next.set('assetId', f.assetId);
  else next.delete('assetId');
  next.set('period', f.period);
  next.set('date', f.date);
  return next;
}

export function gspRequest(f: GspFilters): GspRequest | null {
  return f.assetId ? { assetId: f.assetId, period: f.period, date: f.date } : null;
}

/** A day in a month's record keeps its month; a month picked from a day is that day's month. */
export function switchPeriod(f: GspFilters, period: GspPeriod): GspFilters {
  if (period === f.period) return f;
  return { ...f, period, date: period === 'month' ? f.date.slice(0, 7) : `${f.date}-01` };
}

export const fixed = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? '—' : v.toFixed(digits));
export const percent = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);

/** Seconds as h:mm:ss. */
export function hms(seconds: number): string {
  const s = Math.round(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}
