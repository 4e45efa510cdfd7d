// What the transport screens show and send, worked out without React: status colours, times in
// the user's zone, a task as the table shows it, the actions a status offers, and the form values
// of a task or a template to and from the API's shapes (the settings both share).
import dayjs, { type Dayjs } from 'dayjs';
import type { z } from 'zod';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { isErrorCode, type ErrorCode } from '@iotc/shared/errors';
import { PATTERNS } from '@iotc/shared/validation';
import { textShadeOf } from '../../../lib/color.ts';
import {
  DEFAULT_AREA_RADIUS_M,
  DEFAULT_ARRIVAL_DWELL_S,
  MAX_ROUTING_POINTS,
  TASK_HANDOVER_STATUSES,
  TASK_TRANSITIONS,
  type Contact,
  type RouteSource,
  type TaskInput,
  type TaskRow,
  type TaskStatus,
  type TaskViewStatus,
  type TemplateInput,
  type TemplateRow,
} from '@iotc/shared/transport';
import type { PlaceRow } from '@iotc/shared/place';
import { TRIP_DEFAULTS } from '@iotc/shared/trips';
import { escapeHtml } from '../../../lib/html.ts';

export const STATUS_COLORS: Record<TaskViewStatus, string> = {
  pending: '#fa8c16',
  in_transit: '#1677ff',
  arrived: '#13c2c2',
  completed: '#52c41a',
  cancelled: '#8c8c8c',
  abnormal: '#f5222d',
};
/**
 * The same statuses as tag text on its light tint: darker shades of the colours above, each at
 * least 4.5:1 against its tag's background (axe's contrast rule), for pages read outside the console.
 */
export const STATUS_TAG_COLORS: Record<TaskViewStatus, string> = {
  pending: '#ad4e00',
  in_transit: '#0958d9',
  arrived: '#006d75',
  completed: '#237804',
  cancelled: '#595959',
  abnormal: '#a8071a',
};
export const ALL_COLOR = '#1677ff';
export const HIGH_VALUE_COLOR = '#cf1322';

/** An instant in the user's time zone, '' when absent or unreadable. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.format(DATETIME_FORMAT) : '';
}

/** A uuid from the address, else null (an address is user input). */
export function uuidOrNull(value: string | null | undefined): string | null {
  const v = value?.trim();
  return v && PATTERNS.uuid.test(v) ? v : null;
}

/** Kilometres with one decimal from metres. */
export function km(m: number | null | undefined): string {
  return m === null || m === undefined || !Number.isFinite(m) ? '' : (m / 1000).toFixed(1);
}

/** Squared distance of p to the segment a-b in degrees (lon scaled by the latitude), for ordering only. */
function segmentDistance2(p: [number, number], a: [number, number], b: [number, number]): number {
  const k = Math.cos((p[0] * Math.PI) / 180);
  const [px, py, ax, ay, bx, by] = [p[1] * k, p[0], a[1] * k, a[0], b[1] * k, b[0]];
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.min(1, Math.max(0, ((px - ax) * dx + (py - ay) * dy) / len2));
  return (ax + t * dx - px) ** 2 + (ay + t * dy - py) ** 2;
}

/**
 * The points of a road route: origin, the stops in order, destination, and the drawn points as
 * via points (evenly picked down to what the routing service takes besides the places, first and
 * last kept), each on the leg between two places it lies nearest to, in their drawn order.
 */
export function roadRoutePoints(origin: [number, number], drawn: readonly [number, number][], destination: [number, number], stops: readonly [number, number][] = []): [number, number][] {
  const max = Math.max(0, MAX_ROUTING_POINTS - 2 - stops.length);
  const step = drawn.length > max ? (drawn.length - 1) / Math.max(1, max - 1) : 1;
  const vias = drawn.length > max ? Array.from({ length: max }, (_, i) => drawn[Math.round(i * step)]!) : drawn;
  const places = [origin, ...stops, destination];
  const legs: [number, number][][] = places.slice(1).map(() => []);
  let leg = 0;
  for (const v of vias) {
    let best = leg;
    for (let i = leg; i < legs.length; i++) if (segmentDistance2(v, places[i]!, places[i + 1]!) < segmentDistance2(v, places[best]!, places[best + 1]!)) best = i;
    leg = best;
    legs[leg]!.push(v);
  }
  return places.flatMap((p, i) => [p, ...(legs[i] ?? [])]);
}

/** A number as typed by people: no trailing zeros, thousands grouped. */
export function amount(n: number | null | undefined, lang: string): string {
  return n === null || n === undefined ? '' : n.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US', { maximumFractionDigits: 2 });
}

/** `min ~ max unit`, `≥ min`, `≤ max`, or '' without bounds. */
export function rangeText(min: number | null, max: number | null, unit: string): string {
  if (min !== null && max !== null) return `${min} ~ ${max}${unit}`;
  if (min !== null) return `≥ ${min}${unit}`;
  if (max !== null) return `≤ ${max}${unit}`;
  return '';
}

// ---- status actions -------------------------------------------------------------------------

/** A manual move the screens offer, and how it asks. */
export interface TaskAction {
  to: TaskStatus;
  /** i18n key of the button. */
  name: 'transport.task.action.start' | 'transport.task.action.arrive' | 'transport.task.action.complete' | 'transport.task.action.cancel' | 'transport.task.action.resume';
  /** 'reason': a dialog asking why; 'confirm': a confirmation. */
  asks: 'reason' | 'confirm';
}

const ACTION_NAMES: Record<TaskStatus, TaskAction['name']> = {
  pending: 'transport.task.action.start',
  in_transit: 'transport.task.action.start',
  arrived: 'transport.task.action.arrive',
  completed: 'transport.task.action.complete',
  cancelled: 'transport.task.action.cancel',
};

/** The moves a task in `status` offers, in the order of TASK_TRANSITIONS. */
export function taskActions(status: TaskStatus): TaskAction[] {
  return TASK_TRANSITIONS[status].map((to): TaskAction => {
    if (to === 'cancelled') return { to, name: ACTION_NAMES.cancelled, asks: 'reason' };
    // Back on the road after an arrival: it resumes rather than starts.
    if (to === 'in_transit' && status === 'arrived') return { to, name: 'transport.task.action.resume', asks: 'confirm' };
    return { to, name: ACTION_NAMES[to], asks: 'confirm' };
  });
}

/** The goods may change hands while the task is on its way or arrived (TASK_HANDOVER_STATUSES). */
export function canHandOver(status: TaskStatus): boolean {
  return TASK_HANDOVER_STATUSES.includes(status);
}

/** Completed and cancelled tasks are final: nothing of theirs changes. */
export function isClosed(status: TaskStatus): boolean {
  return status === 'completed' || status === 'cancelled';
}

// ---- the table's rows ------------------------------------------------------------------------

function tag(text: string, color: string, kind: string): string {
  return `<span class="tt-tag" data-tag="${kind}" style="color:${textShadeOf(color)};border-color:${color}66;background:${color}14">${escapeHtml(text)}</span>`;
}

/** The texts a row's cells need, already translated (kept out of the pure model's i18n). */
export interface RowWords {
  status: (s: TaskViewStatus) => string;
  highValue: string;
  reason: (r: TaskRow['abnormalReasons'][number]) => string;
  alarms: (n: number) => string;
  auto: string;
  manual: string;
  yes: string;
  no: string;
  lang: string;
}

/** A task as the table shows it. */
export interface TaskView {
  id: string;
  code: string;
  /** HTML: the goods, a high-value tag and the declared value. */
  goods: string;
  customer: string;
  carrier: string;
  devices: string[];
  places: string;
  plannedStart: string;
  plannedArrival: string;
  /** HTML: the status tag, and the red abnormal tag with its reasons and open alarms. */
  status: string;
  startedAt: string;
  arrivedAt: string;
  onTime: string;
  orgName: string;
  row: TaskRow;
}

function withMode(time: string | null, mode: 'auto' | 'manual' | null, w: RowWords): string {
  const at = formatTime(time);
  if (!at) return '';
  return mode ? `${at} (${mode === 'auto' ? w.auto : w.manual})` : at;
}

export function toTaskView(row: TaskRow, w: RowWords): TaskView {
  const quantity = row.goodsQuantity !== null ? ` × ${amount(row.goodsQuantity, w.lang)}${row.goodsUnit ? ` ${row.goodsUnit}` : ''}` : '';
  const value = row.goodsValue !== null ? `<span class="tt-goods-value">¥${escapeHtml(amount(row.goodsValue, w.lang))}</span>` : '';
  const goods = `<span class="tt-goods">${escapeHtml(row.goodsName + quantity)}</span>${row.highValue ? tag(w.highValue, HIGH_VALUE_COLOR, 'high-value') : ''}${value}`;
  let status = tag(w.status(row.status), STATUS_COLORS[row.status], 'status');
  if (row.abnormal) {
    const why = [...row.abnormalReasons.map(w.reason), ...(row.activeAlarms > 0 ? [w.alarms(row.activeAlarms)] : [])];
    status += tag(`${w.status('abnormal')}${why.length ? `: ${why.join(', ')}` : ''}`, STATUS_COLORS.abnormal, 'abnormal');
  }
  return {
    id: row.id,
    code: row.code,
    goods,
    customer: row.customer,
    carrier: row.asset ? `${row.asset.code}${row.asset.name && row.asset.name !== row.asset.code ? ` · ${row.asset.name}` : ''}` : '',
    devices: row.devices.map((d) => d.name || d.deviceId),
    places: [row.origin, ...(row.stops ?? []), row.destination].map((p) => p.name).join(' → '),
    plannedStart: formatTime(row.plannedStart),
    plannedArrival: formatTime(row.plannedArrival),
    status,
    startedAt: withMode(row.startedAt, row.startMode, w),
    arrivedAt: withMode(row.arrivedAt, row.arriveMode, w),
    onTime: row.onTime === null ? '' : row.onTime ? w.yes : w.no,
    orgName: row.orgName,
    row,
  };
}

// ---- form values -------------------------------------------------------------------------------

export interface PlaceValues {
  /** The place library's place it was picked from (a change to that place is copied into the task or template). */
  placeId?: string | null;
  name: string;
  address: string;
  lat: number | null;
  lon: number | null;
  radiusM: number | null;
}

/** A stop: a place of the library (its id is kept) with its copy. */
export interface StopValues extends PlaceValues {
  placeId: string;
}

/** A task's circle keeps to its radius range (50 m to 50 km). */
export const taskRadius = (radiusM: number) => Math.min(50_000, Math.max(50, Math.round(radiusM)));

/** A library place as a stop of the form. */
export function stopFromPlace(p: Pick<PlaceRow, 'id' | 'name' | 'lat' | 'lon' | 'radiusM'>): StopValues {
  return { placeId: p.id, name: p.name, address: '', lat: p.lat, lon: p.lon, radiusM: taskRadius(p.radiusM) };
}

export interface ContactValues {
  name?: string;
  phone?: string;
  email?: string;
}

/** The settings a template keeps and a task has too, as the form holds them. */
export interface SettingsValues {
  origin: PlaceValues;
  destination: PlaceValues;
  /** In order between the origin and the destination. */
  stops: StopValues[];
  routeSource: RouteSource;
  route: [number, number][];
  tempMin: number | null;
  tempMax: number | null;
  humidityMin: number | null;
  humidityMax: number | null;
  alarm: {
    levelId: string | null;
    temperature: boolean;
    humidity: boolean;
    door: boolean;
    yawM: number | null;
    /** Minutes in the form, seconds on the wire. */
    stayTimeoutMin: number | null;
    overspeedKmh: number | null;
    durationS: number | null;
  };
  recipients: ContactValues[];
  detection: { auto: boolean; moveM: number | null; moveS: number | null; dwellS: number | null };
}

export interface TaskFormValues extends SettingsValues {
  orgId?: string;
  templateId: string | null;
  goodsName: string;
  goodsQuantity: number | null;
  goodsUnit: string;
  goodsValue: number | null;
  highValue: boolean;
  customer: string;
  carrierKind: 'vehicle' | 'container';
  assetId: string | null;
  deviceIds: string[];
  plannedStart: Dayjs | null;
  plannedArrival: Dayjs | null;
  driverName: string;
  driverPhone: string;
  contacts: ContactValues[];
  remark: string;
  /** The product profile the trip is judged against (issue 27 item 3). */
  profileId?: string | null;
}

export interface TemplateFormValues extends SettingsValues {
  orgId?: string;
  name: string;
  description: string;
}

const emptyPlace = (): PlaceValues => ({ name: '', address: '', lat: null, lon: null, radiusM: DEFAULT_AREA_RADIUS_M });

export function defaultSettings(): SettingsValues {
  return {
    origin: emptyPlace(),
    destination: emptyPlace(),
    stops: [],
    routeSource: 'none',
    route: [],
    tempMin: null,
    tempMax: null,
    humidityMin: null,
    humidityMax: null,
    alarm: { levelId: null, temperature: true, humidity: false, door: false, yawM: null, stayTimeoutMin: null, overspeedKmh: null, durationS: 60 },
    recipients: [],
    detection: { auto: true, moveM: TRIP_DEFAULTS.stopRadiusM, moveS: TRIP_DEFAULTS.stopMinS, dwellS: DEFAULT_ARRIVAL_DWELL_S },
  };
}

type SettingsSource = Pick<
  TemplateRow,
  'origin' | 'destination' | 'stops' | 'routeSource' | 'route' | 'tempMin' | 'tempMax' | 'humidityMin' | 'humidityMax' | 'alarm' | 'recipients' | 'detection'
>;

export function settingsFrom(s: SettingsSource): SettingsValues {
  return {
    origin: { ...s.origin },
    destination: { ...s.destination },
    stops: (s.stops ?? []).map((x) => ({ ...x })),
    routeSource: s.routeSource,
    route: s.route.map(([lat, lon]) => [lat, lon]),
    tempMin: s.tempMin,
    tempMax: s.tempMax,
    humidityMin: s.humidityMin,
    humidityMax: s.humidityMax,
    alarm: {
      levelId: s.alarm.levelId,
      temperature: s.alarm.temperature,
      humidity: s.alarm.humidity,
      door: s.alarm.door,
      yawM: s.alarm.yawM,
      stayTimeoutMin: s.alarm.stayTimeoutS === null ? null : Math.round(s.alarm.stayTimeoutS / 60),
      overspeedKmh: s.alarm.overspeedKmh,
      durationS: s.alarm.durationS,
    },
    recipients: s.recipients.map((c) => ({ ...c })),
    detection: { ...s.detection },
  };
}

const text = (v: string | null | undefined) => (v ?? '').trim();
const num = (v: number | null | undefined) => (v === undefined || v === null || Number.isNaN(v) ? null : v);

function contacts(list: ContactValues[] | undefined): Contact[] {
  return (list ?? []).map((c) => ({ name: text(c.name), phone: text(c.phone), email: text(c.email) }));
}

function place(p: PlaceValues | undefined) {
  return {
    ...(p?.placeId ? { placeId: p.placeId } : {}),
    name: text(p?.name),
    address: text(p?.address),
    // Missing coordinates are left out so the schema names them (LAT_REQUIRED).
    lat: num(p?.lat) ?? undefined,
    lon: num(p?.lon) ?? undefined,
    radiusM: num(p?.radiusM) ?? DEFAULT_AREA_RADIUS_M,
  } as TaskInput['origin'];
}

/** The settings part of a body; the route's source is 'none' without points, else what drew it. */
export function settingsBody(v: SettingsValues) {
  const route = v.route ?? [];
  const routeSource: RouteSource = route.length === 0 ? 'none' : v.routeSource === 'none' ? 'drawn' : v.routeSource;
  const a = v.alarm;
  return {
    origin: place(v.origin),
    destination: place(v.destination),
    stops: (v.stops ?? []).map((x) => ({ ...place(x), placeId: x.placeId })),
    routeSource,
    route,
    tempMin: num(v.tempMin),
    tempMax: num(v.tempMax),
    humidityMin: num(v.humidityMin),
    humidityMax: num(v.humidityMax),
    alarm: {
      levelId: a.levelId ?? null,
      temperature: !!a.temperature,
      humidity: !!a.humidity,
      door: !!a.door,
      yawM: num(a.yawM),
      stayTimeoutS: num(a.stayTimeoutMin) === null ? null : Math.round(a.stayTimeoutMin! * 60),
      overspeedKmh: num(a.overspeedKmh),
      durationS: num(a.durationS) ?? 0,
    },
    recipients: contacts(v.recipients),
    detection: {
      auto: !!v.detection.auto,
      moveM: num(v.detection.moveM) ?? TRIP_DEFAULTS.stopRadiusM,
      moveS: num(v.detection.moveS) ?? TRIP_DEFAULTS.stopMinS,
      dwellS: num(v.detection.dwellS) ?? DEFAULT_ARRIVAL_DWELL_S,
    },
  };
}

export function newTaskValues(): TaskFormValues {
  return {
    ...defaultSettings(),
    templateId: null,
    goodsName: '',
    goodsQuantity: null,
    goodsUnit: '',
    goodsValue: null,
    highValue: false,
    customer: '',
    carrierKind: 'vehicle',
    assetId: null,
    deviceIds: [],
    plannedStart: null,
    plannedArrival: null,
    driverName: '',
    driverPhone: '',
    contacts: [],
    remark: '',
  };
}

/** A new task with the settings of `template` (which it names, for the record). */
export function taskValuesFromTemplate(template: TemplateRow): TaskFormValues {
  return { ...newTaskValues(), ...settingsFrom(template), orgId: template.orgId, templateId: template.id };
}

export function taskValuesFromRow(row: TaskRow): TaskFormValues {
  return {
    ...settingsFrom(row),
    templateId: row.templateId,
    goodsName: row.goodsName,
    goodsQuantity: row.goodsQuantity,
    goodsUnit: row.goodsUnit,
    goodsValue: row.goodsValue,
    highValue: row.highValue,
    customer: row.customer,
    carrierKind: row.asset?.kind === 'container' ? 'container' : 'vehicle',
    assetId: row.asset?.id ?? null,
    deviceIds: row.devices.map((d) => d.id),
    plannedStart: row.plannedStart ? dayjs(row.plannedStart) : null,
    plannedArrival: row.plannedArrival ? dayjs(row.plannedArrival) : null,
    driverName: row.driverName,
    driverPhone: row.driverPhone,
    contacts: row.contacts.map((c) => ({ ...c })),
    remark: row.remark,
    profileId: row.profile?.id ?? null,
  };
}

/** The body of a task as taskBodySchema reads it. */
export function taskInput(v: TaskFormValues): TaskInput {
  return {
    ...(v.orgId ? { orgId: v.orgId } : {}),
    templateId: v.templateId ?? null,
    goodsName: text(v.goodsName),
    goodsQuantity: num(v.goodsQuantity),
    goodsUnit: text(v.goodsUnit),
    goodsValue: num(v.goodsValue),
    highValue: !!v.highValue,
    customer: text(v.customer),
    assetId: v.assetId ?? null,
    deviceIds: v.deviceIds ?? [],
    plannedStart: v.plannedStart ? v.plannedStart.toISOString() : null,
    plannedArrival: v.plannedArrival ? v.plannedArrival.toISOString() : null,
    driverName: text(v.driverName),
    driverPhone: text(v.driverPhone),
    contacts: contacts(v.contacts),
    remark: text(v.remark),
    profileId: v.profileId ?? null,
    ...settingsBody(v),
  };
}

export function templateValuesFromRow(row: TemplateRow): TemplateFormValues {
  return { ...settingsFrom(row), name: row.name, description: row.description };
}

export function newTemplateValues(): TemplateFormValues {
  return { ...defaultSettings(), name: '', description: '' };
}

export function templateInput(v: TemplateFormValues): TemplateInput {
  return { ...(v.orgId ? { orgId: v.orgId } : {}), name: text(v.name), description: text(v.description), ...settingsBody(v) };
}

// ---- errors onto fields ----------------------------------------------------------------------

export type FieldPath = (string | number)[];

/** The form field of a body path (the form keeps the stay timeout in minutes). */
export function formPath(path: readonly PropertyKey[]): FieldPath {
  const out = path.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number');
  if (out[0] === 'alarm' && out[1] === 'stayTimeoutS') return ['alarm', 'stayTimeoutMin'];
  // A wrong point of the route is the route's error.
  if (out[0] === 'route') return ['route'];
  return out;
}

/** The issues of a failed parse, one per field, with their error codes. */
export function schemaIssues(error: z.ZodError): { name: FieldPath; code: ErrorCode }[] {
  const seen = new Set<string>();
  const out: { name: FieldPath; code: ErrorCode }[] = [];
  for (const issue of error.issues) {
    const code: ErrorCode = isErrorCode(issue.message) ? issue.message : 'VALIDATION';
    // An empty contact is shown on its name field (the list row itself has no field).
    const name = code === 'CONTACT_EMPTY' && issue.path.length === 2 ? [...formPath(issue.path), 'name'] : formPath(issue.path);
    const key = JSON.stringify(name);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name, code });
  }
  return out;
}

/** The field a server refusal names, when it names one. */
export const SERVER_ERROR_FIELDS: Partial<Record<ErrorCode, FieldPath>> = {
  TASK_GOODS_REQUIRED: ['goodsName'],
  TASK_DEVICES_REQUIRED: ['deviceIds'],
  TASK_DEVICES_TOO_MANY: ['deviceIds'],
  TASK_DEVICES_REPEATED: ['deviceIds'],
  TASK_DEVICE_UNKNOWN: ['deviceIds'],
  TASK_DEVICE_BUSY: ['deviceIds'],
  TASK_ASSET_UNKNOWN: ['assetId'],
  TASK_ARRIVAL_BEFORE_START: ['plannedArrival'],
  TASK_YAW_NEEDS_ROUTE: ['alarm', 'yawM'],
  ALARM_LEVEL_REQUIRED: ['alarm', 'levelId'],
  ROUTE_TOO_SHORT: ['route'],
  ROUTE_TOO_LONG: ['route'],
};
