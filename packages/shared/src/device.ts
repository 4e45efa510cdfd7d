// Devices and their reports: the registry's shapes, and one report as DESIGN.md defines it.
import { z } from 'zod';
import { blankAsUndefined, isoInstant, listQuerySchema } from './list.ts';

/** A device id: an IMEI or a serial, 4-40 letters, digits, `_` or `-`. */
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{4,40}$/;
const optionalText = (max: number) => z.preprocess(blankAsUndefined, z.string().trim().max(max).optional());

/** How a device reports: `json` (MQTT or HTTP, the report format of DESIGN.md) or `jt808` (JT/T 808 over TCP). */
export const DEVICE_PROTOCOLS = ['json', 'jt808'] as const;
export type DeviceProtocol = (typeof DEVICE_PROTOCOLS)[number];
/** A JT/T 808 terminal's device id: its phone number as the header's BCD digits, 12 (2011/2013, leading zero kept) or 20 (2019). */
export const JT808_DEVICE_ID_PATTERN = /^(\d{12}|\d{20})$/;
const protocolField = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim().toLowerCase()) : v),
  z.enum(DEVICE_PROTOCOLS, { message: 'DEVICE_PROTOCOL_UNKNOWN' }).optional(),
);

const deviceFieldsSchema = z.object({
  deviceId: z.string().trim().regex(DEVICE_ID_PATTERN, { message: 'DEVICE_ID_FORMAT' }),
  name: z.string().trim().min(1, { message: 'NAME_REQUIRED' }).max(100),
  model: optionalText(64),
  /** Default `json` on create; kept as it is when an update leaves it out. */
  protocol: protocolField,
  sim: optionalText(32),
  firmware: optionalText(64),
  /** The owning organisation; the caller's own when absent. */
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export const deviceCreateBodySchema = deviceFieldsSchema.refine((b) => b.protocol !== 'jt808' || JT808_DEVICE_ID_PATTERN.test(b.deviceId), {
  message: 'JT808_DEVICE_ID_FORMAT',
  path: ['deviceId'],
});
export type DeviceCreateBody = z.infer<typeof deviceCreateBodySchema>;
export const deviceUpdateBodySchema = deviceFieldsSchema.omit({ deviceId: true, orgId: true });
export type DeviceUpdateBody = z.infer<typeof deviceUpdateBodySchema>;

export const deviceRowSchema = z.object({
  id: z.string(),
  deviceId: z.string(),
  name: z.string(),
  model: z.string().nullable(),
  protocol: z.enum(DEVICE_PROTOCOLS),
  sim: z.string().nullable(),
  firmware: z.string().nullable(),
  orgId: z.string(),
  orgName: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string().nullable(),
  /** The asset the device is mounted on now. */
  asset: z.object({ id: z.string(), kind: z.string(), code: z.string(), name: z.string() }).nullable(),
});
export type DeviceRow = z.infer<typeof deviceRowSchema>;
/** A new device, or a new secret: the secret is shown this once and kept only as a hash. */
export const deviceSecretSchema = deviceRowSchema.extend({ secret: z.string() });
export type DeviceWithSecret = z.infer<typeof deviceSecretSchema>;

export const deviceQuerySchema = listQuerySchema.extend({
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  protocol: z.preprocess(blankAsUndefined, z.enum(DEVICE_PROTOCOLS).optional()),
});
export type DeviceQuery = z.infer<typeof deviceQuerySchema>;

/** How far ahead of the server's clock a device time may be (clock drift), in ms. */
export const MAX_FUTURE_SKEW_MS = 10 * 60_000;

/** One report (DESIGN.md, "Device report format"). */
export const deviceReportSchema = z
  .object({
    deviceId: z.string().trim().min(1),
    time: isoInstant,
    lat: z.number().min(-90).max(90).optional(),
    lon: z.number().min(-180).max(180).optional(),
    positioning: z.enum(['GPS', 'LBS']).optional(),
    network: z.enum(['2G', '3G', '4G', '5G']).optional(),
    speed: z.number().min(0).max(1000).optional(),
    course: z.number().min(0).max(360).optional(),
    /** Ignition / power state when the tracker knows it (false: engine off); optional. */
    acc: z.boolean().optional(),
    extraData: z.union([z.string().max(20_000), z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
  })
  .refine((r) => (r.lat === undefined) === (r.lon === undefined), { message: 'lat and lon come together' });
export type DeviceReport = z.infer<typeof deviceReportSchema>;

/** Most reports in one HTTP call or one MQTT message. */
export const MAX_REPORTS_PER_CALL = 1000;

export const intakeResultSchema = z.object({
  accepted: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.array(z.object({ index: z.number().int(), reason: z.string() })),
});
export type IntakeResult = z.infer<typeof intakeResultSchema>;

export const DEVICE_API = {
  devices: '/api/iot/v2/devices',
  report: '/api/iot/v2/device/report',
} as const;
