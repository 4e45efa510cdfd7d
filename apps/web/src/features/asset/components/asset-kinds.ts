// One declaration per asset kind (vehicle, container, warehouse, cold room, refrigerator,
// gateway): its REST resource, labels, the attribute fields its form shows and the columns its
// table lists. The screens, forms and import/export are generic over this table, so a kind is
// added here and nowhere else.
import dayjs from 'dayjs';
import { ASSET_PARENTS, ASSET_RESOURCES, KINDS_WITH_RANGES, type AssetKind, type AssetRow } from '@iotc/shared/asset';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { Lang } from '@iotc/shared/i18n';
import { provinceName } from '@iotc/shared/region';
import type { TableColumn } from '../../../components/data-table/types.ts';

/** One attribute of a kind (a key of its `attrs`) as the form and the table show it. */
export interface AttrField {
  key: string;
  /** i18n key of the label. */
  label: string;
  type: 'text' | 'number';
  maxLength?: number;
  /** Number fields: bounds of the input (the shared schema checks them anyway). */
  min?: number;
  max?: number;
  /** Listed in the table (the rest show in the form, the export and the custom-column dialog). */
  listed: boolean;
}

export interface AssetKindConfig {
  kind: AssetKind;
  /** The REST resource under /api/iot/v2. */
  resource: string;
  /** i18n keys. */
  title: string;
  codeLabel: string;
  newLabel: string;
  editLabel: string;
  attrs: AttrField[];
  /** Temperature and humidity ranges of the goods it holds. */
  ranges: boolean;
  /** Kinds this kind sits in (cold rooms in warehouses); empty for top-level kinds. */
  parentKinds: readonly AssetKind[];
}

const text = (key: string, maxLength: number, listed = true): AttrField => ({ key, label: `asset.attr.${key}`, type: 'text', maxLength, listed });
const num = (key: string, min: number, max: number, listed = true): AttrField => ({ key, label: `asset.attr.${key}`, type: 'number', min, max, listed });

/** Attribute fields per kind; keys and order match `ASSET_ATTRS` of the shared contract (a test checks it). */
const ATTR_FIELDS: Record<AssetKind, AttrField[]> = {
  vehicle: [text('vehicleType', 32), text('driver', 64), text('driverPhone', 32)],
  container: [text('containerType', 32), text('size', 16), text('owner', 100)],
  warehouse: [text('province', 32), text('city', 32), text('address', 200), text('zip', 10, false), num('lat', -90, 90, false), num('lon', -180, 180, false)],
  cold_room: [num('area', 0, 1_000_000)],
  refrigerator: [text('model', 64)],
  gateway: [text('model', 64), text('serial', 64), text('ip', 64)],
};

const LABEL_KEYS: Record<AssetKind, string> = {
  vehicle: 'vehicle',
  container: 'container',
  warehouse: 'warehouse',
  cold_room: 'coldRoom',
  refrigerator: 'refrigerator',
  gateway: 'gateway',
};

export function assetConfig(kind: AssetKind): AssetKindConfig {
  const k = LABEL_KEYS[kind];
  return {
    kind,
    resource: ASSET_RESOURCES[kind],
    title: `asset.${k}.title`,
    codeLabel: `asset.${k}.code`,
    newLabel: `asset.${k}.new`,
    editLabel: `asset.${k}.edit`,
    attrs: ATTR_FIELDS[kind],
    ranges: KINDS_WITH_RANGES.includes(kind),
    parentKinds: ASSET_PARENTS[kind] ?? [],
  };
}

/** The i18n key naming a kind ("Vehicle", "Cold room"). */
export function kindLabel(kind: string): string {
  return kind in LABEL_KEYS ? `asset.kind.${LABEL_KEYS[kind as AssetKind]}` : kind;
}

/**
 * A row as the tables show it: attributes flattened to `attr_<key>`, ranges as text, times
 * formatted in the user's time zone (the sort keys stay the API's).
 */
export type AssetView = AssetRow & {
  tempRange: string;
  humidityRange: string;
  deviceIds: string[];
  position: string;
  [attr: `attr_${string}`]: string | number | null;
};

/** "-20 ~ -18 °C", "≥ 2 °C", "≤ 8 °C", or '' when neither bound is set. */
export function rangeText(min: number | null, max: number | null, unit: string): string {
  if (min === null && max === null) return '';
  if (min !== null && max !== null) return `${min} ~ ${max} ${unit}`;
  return min !== null ? `≥ ${min} ${unit}` : `≤ ${max} ${unit}`;
}

/** A row as the table shows it; a warehouse's province is the province dictionary's name in `lang` (other text as written). */
export function toAssetView(row: AssetRow, lang: Lang = 'zh'): AssetView {
  const view: AssetView = {
    ...row,
    tempRange: rangeText(row.tempMin, row.tempMax, '°C'),
    humidityRange: rangeText(row.humidityMin, row.humidityMax, '%RH'),
    deviceIds: (row.devices ?? []).map((d) => d.deviceId),
    createdAt: dayjs(row.createdAt).format(DATETIME_FORMAT),
    updatedAt: dayjs(row.updatedAt).format(DATETIME_FORMAT),
    position: row.attrs.lat != null && row.attrs.lon != null ? `${row.attrs.lat}, ${row.attrs.lon}` : '',
  };
  for (const [key, value] of Object.entries(row.attrs ?? {})) view[`attr_${key}`] = key === 'province' && typeof value === 'string' ? provinceName(value, lang) : value;
  return view;
}

/** The table columns of a kind: code and name, its listed attributes, ranges, bound devices. */
export function assetColumns(kind: AssetKind, opts: { codeAsLink?: boolean } = {}): TableColumn<AssetView>[] {
  const config = assetConfig(kind);
  const columns: TableColumn<AssetView>[] = [
    { key: config.codeLabel, value: 'code', sortable: true, type: opts.codeAsLink ? 'link' : undefined },
    { key: 'asset.name', value: 'name', sortable: true },
  ];
  for (const attr of config.attrs) {
    if (kind === 'warehouse' && (attr.key === 'lat' || attr.key === 'lon')) continue;
    columns.push({
      key: attr.label,
      value: `attr_${attr.key}`,
      hidden: !attr.listed,
      ...(attr.key === 'area' ? { type: 'unit' as const, unit: 'm²' } : {}),
    });
  }
  // Latitude and longitude read as one position.
  if (kind === 'warehouse') columns.push({ key: 'asset.position', value: 'position', hidden: true });
  if (config.ranges) {
    columns.push({ key: 'asset.tempRange', value: 'tempRange' }, { key: 'asset.humidityRange', value: 'humidityRange' });
  }
  columns.push({ key: 'asset.devices', value: 'deviceIds', type: 'tags' });
  columns.push({ key: 'asset.org', value: 'orgName', hidden: true });
  columns.push({ key: 'asset.updatedAt', value: 'updatedAt', type: 'datetime', sortable: true, hidden: true });
  return columns;
}

/** One field of the create / edit form, as the form renders it. */
export interface FormFieldDef {
  /** antd form name path; it mirrors the request body (`['attrs', 'zip']`). */
  name: string[];
  label: string;
  type: 'text' | 'number';
  required?: boolean;
  maxLength?: number;
  min?: number;
  max?: number;
  /** A group the form lays out together ('main', 'attrs', 'ranges'). */
  group: 'main' | 'attrs' | 'ranges';
}

const RANGE_FIELDS: FormFieldDef[] = [
  { name: ['tempMin'], label: 'asset.tempMin', type: 'number', min: -100, max: 100, group: 'ranges' },
  { name: ['tempMax'], label: 'asset.tempMax', type: 'number', min: -100, max: 100, group: 'ranges' },
  { name: ['humidityMin'], label: 'asset.humidityMin', type: 'number', min: 0, max: 100, group: 'ranges' },
  { name: ['humidityMax'], label: 'asset.humidityMax', type: 'number', min: 0, max: 100, group: 'ranges' },
];

/** The form fields of a kind, in order: code, name, its attributes, then the ranges where it has them. */
export function assetFormFields(kind: AssetKind): FormFieldDef[] {
  const config = assetConfig(kind);
  return [
    { name: ['code'], label: config.codeLabel, type: 'text', required: true, maxLength: 64, group: 'main' },
    { name: ['name'], label: 'asset.name', type: 'text', required: true, maxLength: 100, group: 'main' },
    ...config.attrs.map(
      (a): FormFieldDef => ({ name: ['attrs', a.key], label: a.label, type: a.type, maxLength: a.maxLength, min: a.min, max: a.max, group: 'attrs' }),
    ),
    ...(config.ranges ? RANGE_FIELDS : []),
  ];
}

/** The labels of the fields an import error may name: the form's fields and the parent's code. */
export function assetFieldLabels(kind: AssetKind): Record<string, string> {
  const labels: Record<string, string> = Object.fromEntries(assetFormFields(kind).map((f) => [f.name.join('.'), f.label]));
  if (assetConfig(kind).parentKinds.length) labels.parentCode = 'asset.import.parentCode';
  return labels;
}
