// GET /api/iot/v2/telemetry: a device's stored readings in a window, paged, newest first; rows
// made ready for the table (times in the user's time zone, sensor values flattened, rounded to
// their precision). And the export of the same window as CSV or Excel.
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { LIVE_API, type TelemetryRow } from '@iotc/shared/live';
import { SENSOR_FIELDS } from '@iotc/shared/sensors';
import { exportList, listQueryOptions, type ExportFormat, type ListState } from '../../../lib/list-query.ts';
import type { SeriesWindow } from '../../../api/telemetry-series.ts';

/** A reading as the table shows it: one field per sensor value, door as 'open' / 'closed'. */
export interface TelemetryView {
  key: string;
  time: string;
  receivedAt: string;
  lat: number | null;
  lon: number | null;
  positioning: string | null;
  network: string | null;
  speed: string | null;
  course: number | null;
  temperature?: string | null;
  humidity?: string | null;
  light?: string | null;
  vibration?: string | null;
  pressure?: string | null;
  battery?: string | null;
  batteryTemperature?: string | null;
  mileage?: string | null;
  fuel?: string | null;
  signal?: string | null;
  satellites?: string | null;
  door?: string | null;
}

/** A value with its sensor's decimals (6 -> '6.0'), so a column reads evenly. */
function rounded(value: unknown, precision: number): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  return value.toFixed(precision);
}

export function toTelemetryView(r: TelemetryRow, index: number): TelemetryView {
  const view: TelemetryView = {
    key: `${r.time}-${index}`,
    time: dayjs(r.time).format(DATETIME_FORMAT),
    receivedAt: dayjs(r.receivedAt).format(DATETIME_FORMAT),
    lat: r.lat,
    lon: r.lon,
    positioning: r.positioning,
    network: r.network,
    speed: rounded(r.speed, 1),
    course: r.course,
  };
  const out = view as unknown as Record<string, unknown>;
  for (const f of SENSOR_FIELDS) {
    const v = r.sensors[f.key];
    out[f.key] = f.key === 'door' ? (typeof v === 'string' ? v : null) : rounded(v, f.precision);
  }
  return view;
}

/** Readings come newest first unless the table asks for `time,asc`. */
export const TELEMETRY_SORT = 'time,desc';

export function telemetryListState(w: SeriesWindow, page: number, size: number, sort: string | undefined): ListState {
  return { page, size, sort: sort ?? TELEMETRY_SORT, filters: { device: w.device, from: w.from, to: w.to } };
}

export function useTelemetry(state: ListState, enabled: boolean) {
  return useQuery({
    ...listQueryOptions<TelemetryRow>(LIVE_API.telemetry, state),
    enabled,
    select: (page) => ({ ...page, rows: page.rows.map(toTelemetryView) }),
  });
}

/** Downloads the window's readings; answers the saved file's name. */
export function exportTelemetry(format: ExportFormat, w: SeriesWindow): Promise<string> {
  return exportList(LIVE_API.telemetry, format, { filters: { device: w.device, from: w.from, to: w.to } });
}
