// A JT/T 808 terminal as the device registry shows it: its registration (0x0100), whether it is
// connected now and from where, and its last frames (decoded summary and raw hex) for
// troubleshooting. GET /api/iot/v2/devices/:id/jt808.
import { z } from 'zod';
import { listQuerySchema } from './list.ts';

/** Frames kept per terminal (the newest); older ones are pruned. */
export const JT808_FRAMES_KEPT = 50;

export const jt808FrameSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  direction: z.enum(['in', 'out']),
  /** The message id as `0x0200`. */
  messageId: z.string(),
  serial: z.number().int(),
  /** The decoded message (header fields left out), or `{ error }` for a frame that could not be decoded. */
  summary: z.unknown(),
  /** The frame as received or sent (escaped, between the 0x7e flags), cut at 1 KB (`…` at the end). */
  hex: z.string(),
});
export type Jt808FrameRow = z.infer<typeof jt808FrameSchema>;

export const jt808RegistrationSchema = z.object({
  manufacturer: z.string().nullable(),
  model: z.string().nullable(),
  terminalId: z.string().nullable(),
  province: z.number().int().nullable(),
  city: z.number().int().nullable(),
  /** JT/T 415 plate colour (0: no plate, the plate field holds the VIN). */
  plateColour: z.number().int().nullable(),
  plate: z.string().nullable(),
  edition: z.number().int().nullable(),
  registeredAt: z.string().nullable(),
  /** False after a deregistration (0x0003): the terminal must register again. */
  hasCode: z.boolean(),
});

export const jt808ConnectionSchema = z.object({
  /** Authenticated on an open connection whose node has seen a frame within the idle limit. */
  connected: z.boolean(),
  remoteAddress: z.string().nullable(),
  node: z.string().nullable(),
  connectedAt: z.string().nullable(),
  lastFrameAt: z.string().nullable(),
  disconnectedAt: z.string().nullable(),
});

export const jt808TerminalSchema = z.object({
  deviceId: z.string(),
  /** Null until the terminal registers. */
  registration: jt808RegistrationSchema.nullable(),
  connection: jt808ConnectionSchema.nullable(),
  frames: z.object({ rows: z.array(jt808FrameSchema), total: z.number().int(), page: z.number().int(), size: z.number().int() }),
});
export type Jt808Terminal = z.infer<typeof jt808TerminalSchema>;

export const jt808TerminalQuerySchema = listQuerySchema.pick({ page: true, size: true });
export type Jt808TerminalQuery = z.infer<typeof jt808TerminalQuerySchema>;

export const JT808_API = {
  terminal: (id: string) => `/api/iot/v2/devices/${id}/jt808`,
} as const;
