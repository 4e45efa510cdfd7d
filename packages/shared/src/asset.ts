// Assets: what devices are mounted on (vehicles, containers, warehouses with their cold rooms
// and refrigerators, gateways), their fields per kind, and the binding of a device to an asset.
import { z } from 'zod';
import { blankAsUndefined, listQuerySchema } from './list.ts';

export const ASSET_KINDS = ['vehicle', 'container', 'warehouse', 'cold_room', 'refrigerator', 'gateway'] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];

/** The REST resource of each kind (DESIGN.md names). */
export const ASSET_RESOURCES: Record<AssetKind, string> = {
  vehicle: 'vehicles',
  container: 'containers',
  warehouse: 'warehouses',
  cold_room: 'cold-rooms',
  refrigerator: 'refrigerators',
  gateway: 'gateways',
};

/** Which kind an asset of each kind may sit in (cold rooms in warehouses, refrigerators in either). */
export const ASSET_PARENTS: Partial<Record<AssetKind, readonly AssetKind[]>> = {
  cold_room: ['warehouse'],
  refrigerator: ['warehouse', 'cold_room'],
};

const blankAsNull = (v: unknown) => (v === undefined || (typeof v === 'string' && v.trim() === '') ? null : v);
const optionalText = (max: number) => z.preprocess(blankAsNull, z.string().trim().max(max).nullable());
const optionalNumber = (min: number, max: number) => z.preprocess(blankAsNull, z.coerce.number().min(min).max(max).nullable());

/** The fields each kind adds to code and name (kept as `attrs`). */
export const ASSET_ATTRS = {
  vehicle: z.object({ vehicleType: optionalText(32), driver: optionalText(64), driverPhone: optionalText(32) }),
  container: z.object({ containerType: optionalText(32), size: optionalText(16), owner: optionalText(100) }),
  warehouse: z.object({
    province: optionalText(32),
    city: optionalText(32),
    address: optionalText(200),
    zip: z.preprocess(blankAsNull, z.string().trim().regex(/^[A-Za-z0-9 -]{3,10}$/, { message: 'ZIP_FORMAT' }).nullable()),
    lat: optionalNumber(-90, 90),
    lon: optionalNumber(-180, 180),
  }),
  cold_room: z.object({ area: optionalNumber(0, 1_000_000) }),
  refrigerator: z.object({ model: optionalText(64) }),
  gateway: z.object({ model: optionalText(64), serial: optionalText(64), ip: optionalText(64) }),
} as const satisfies Record<AssetKind, z.ZodObject>;

/** Every attribute key of every kind, in the order the forms and exports use. */
export const ASSET_ATTR_KEYS = Object.fromEntries(Object.entries(ASSET_ATTRS).map(([k, s]) => [k, Object.keys(s.shape)])) as unknown as Record<
  AssetKind,
  readonly string[]
>;

export type AssetAttrs = Record<string, string | number | null>;

/** Kinds whose goods have temperature and humidity ranges. */
export const KINDS_WITH_RANGES: readonly AssetKind[] = ['vehicle', 'container', 'warehouse', 'cold_room', 'refrigerator'];

const rangeFields = {
  tempMin: optionalNumber(-100, 100),
  tempMax: optionalNumber(-100, 100),
  humidityMin: optionalNumber(0, 100),
  humidityMax: optionalNumber(0, 100),
};

/** Create / update body of one kind. */
export function assetBodySchema(kind: AssetKind) {
  return z
    .object({
      code: z.string().trim().min(1, { message: 'ASSET_CODE_REQUIRED' }).max(64),
      name: z.string().trim().min(1, { message: 'NAME_REQUIRED' }).max(100),
      parentId: z.preprocess(blankAsNull, z.uuid().nullable()),
      orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
      // Absent attributes are all empty.
      attrs: z.preprocess((v) => v ?? {}, ASSET_ATTRS[kind] as unknown as z.ZodType<AssetAttrs>),
      ...rangeFields,
      // A warehouse's place in the library (its latitude and longitude follow the place); absent
      // keeps the stored one, null takes it away. Other kinds have none.
      placeId: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), z.uuid().nullable().optional()),
    })
    .refine((b) => kind === 'warehouse' || !b.placeId, { message: 'VALIDATION', path: ['placeId'] })
    .refine((b) => b.tempMin === null || b.tempMax === null || b.tempMin <= b.tempMax, { message: 'RANGE_ORDER', path: ['tempMax'] })
    .refine((b) => b.humidityMin === null || b.humidityMax === null || b.humidityMin <= b.humidityMax, {
      message: 'RANGE_ORDER',
      path: ['humidityMax'],
    });
}
export type AssetBody = z.infer<ReturnType<typeof assetBodySchema>>;

export const assetRowSchema = z.object({
  id: z.string(),
  kind: z.enum(ASSET_KINDS),
  code: z.string(),
  name: z.string(),
  parentId: z.string().nullable(),
  parentName: z.string().nullable(),
  orgId: z.string(),
  orgName: z.string(),
  attrs: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  tempMin: z.number().nullable(),
  tempMax: z.number().nullable(),
  humidityMin: z.number().nullable(),
  humidityMax: z.number().nullable(),
  /** A warehouse's place in the library, and its name. */
  placeId: z.string().nullable(),
  placeName: z.string().nullable(),
  /** Devices bound now. */
  devices: z.array(z.object({ id: z.string(), deviceId: z.string(), name: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AssetRow = z.infer<typeof assetRowSchema>;

export const assetQuerySchema = listQuerySchema.extend({
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  parentId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type AssetQuery = z.infer<typeof assetQuerySchema>;

export const bindBodySchema = z.object({ assetId: z.uuid() });
export type BindBody = z.infer<typeof bindBodySchema>;

export const bindingRowSchema = z.object({
  id: z.string(),
  deviceRef: z.string().nullable(),
  deviceId: z.string(),
  assetId: z.string().nullable(),
  assetKind: z.enum(ASSET_KINDS),
  assetCode: z.string(),
  assetName: z.string(),
  boundAt: z.string(),
  boundBy: z.string(),
  unboundAt: z.string().nullable(),
  unboundBy: z.string().nullable(),
});
export type BindingRow = z.infer<typeof bindingRowSchema>;

export const importResultSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  /** Row numbers are the sheet's (the header is row 1); nothing is stored when there are errors. */
  errors: z.array(z.object({ row: z.number().int(), field: z.string(), message: z.string() })),
  /** Devices only: the secrets generated for new devices without one in the sheet, shown this once. */
  secrets: z.array(z.object({ deviceId: z.string(), secret: z.string() })).optional(),
});
export type ImportResult = z.infer<typeof importResultSchema>;

export const ASSET_API = {
  base: '/api/iot/v2',
  /** Device bindings: POST bind, POST unbind, GET history. */
  deviceBind: (id: string) => `/api/iot/v2/devices/${id}/bind`,
  deviceUnbind: (id: string) => `/api/iot/v2/devices/${id}/unbind`,
  deviceBindings: (id: string) => `/api/iot/v2/devices/${id}/bindings`,
  assetBindings: (resource: string, id: string) => `/api/iot/v2/${resource}/${id}/bindings`,
} as const;
