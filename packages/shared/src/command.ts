// Remote control: operators ask for a command to a device, a reviewer approves or rejects it, an
// approved command goes to the device over MQTT and the device's acknowledgement closes it (no
// acknowledgement in time: failed). Every step is appended to the command's story. The service is
// apps/server/src/modules/command.
//
// The device side, over MQTT (QoS 1):
//   server -> device, topic `devices/<deviceId>/command`:
//     { "id": "<command id>", "kind": "set_point", "params": { "celsius": -18 }, "time": "<ISO>" }
//   device -> server, topic `devices/<deviceId>/command/ack`:
//     { "id": "<command id>", "ok": true | false, "message"?: "<text>", "time"?: "<ISO>" }
// On the embedded broker a device (signed in with its id and secret) may subscribe only to its
// own command topic and publish only to its own ack topic; an acknowledgement naming another
// device's command, or one that is not this shape, is logged and dropped.
import { z } from 'zod';
import { signatureFieldsSchema } from './signature.ts';
import { blankAsUndefined, csvFilter, isoInstant, listQuerySchema } from './list.ts';

export const COMMAND_KINDS = ['report_interval', 'set_point', 'lock', 'unlock', 'reboot', 'custom', 'position_query', 'text_message', 'terminal_control'] as const;
export type CommandKind = (typeof COMMAND_KINDS)[number];

/**
 * What a device of each protocol can be asked. A JT/T 808 terminal gets the standard's messages:
 * position query 0x8201 (answered 0x0201), text message 0x8300, terminal control 0x8105 (reboot is
 * its "reset"), and the report interval through parameter setting 0x8103 (parameter 0x0029); the
 * others are this project's JSON commands over MQTT.
 */
export const COMMAND_KINDS_BY_PROTOCOL = {
  json: ['report_interval', 'set_point', 'lock', 'unlock', 'reboot', 'custom'],
  jt808: ['position_query', 'text_message', 'terminal_control', 'report_interval', 'reboot'],
} as const satisfies Record<string, readonly CommandKind[]>;
export type CommandProtocol = keyof typeof COMMAND_KINDS_BY_PROTOCOL;
export const commandKindsFor = (protocol: string): readonly CommandKind[] => COMMAND_KINDS_BY_PROTOCOL[protocol as CommandProtocol] ?? COMMAND_KINDS_BY_PROTOCOL.json;

/** JT/T 808 terminal control (0x8105) actions a command may ask for (upgrade and server switch need parameters and are left out). */
export const TERMINAL_CONTROL_ACTIONS = ['power_off', 'reset', 'factory_reset', 'close_data_link', 'close_wireless'] as const;
export type TerminalControlAction = (typeof TERMINAL_CONTROL_ACTIONS)[number];
/** Longest text message, in characters (the terminal's display and TTS take short texts). */
export const MAX_TEXT_MESSAGE = 200;

/** pending_review → sent | rejected | cancelled; sent → acknowledged | failed. */
export const COMMAND_STATUSES = ['pending_review', 'rejected', 'sent', 'acknowledged', 'failed', 'cancelled'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

/** Why a sent command failed: no acknowledgement in time, the device answered `ok: false`, or it could not be handed to the broker. */
export const COMMAND_FAILURES = ['timeout', 'device', 'send'] as const;
export type CommandFailure = (typeof COMMAND_FAILURES)[number];

export const REPORT_INTERVAL_RANGE = { min: 10, max: 86_400 } as const;
export const SET_POINT_RANGE = { min: -40, max: 30 } as const;
/** Largest custom payload, as JSON text in UTF-8 bytes. */
export const MAX_CUSTOM_PAYLOAD_BYTES = 2048;

const jsonBytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;

const reportIntervalParams = z.object({
  seconds: z
    .number({ message: 'COMMAND_INTERVAL_RANGE' })
    .int({ message: 'COMMAND_INTERVAL_RANGE' })
    .min(REPORT_INTERVAL_RANGE.min, { message: 'COMMAND_INTERVAL_RANGE' })
    .max(REPORT_INTERVAL_RANGE.max, { message: 'COMMAND_INTERVAL_RANGE' }),
});
const setPointParams = z.object({
  celsius: z
    .number({ message: 'COMMAND_SET_POINT_RANGE' })
    .min(SET_POINT_RANGE.min, { message: 'COMMAND_SET_POINT_RANGE' })
    .max(SET_POINT_RANGE.max, { message: 'COMMAND_SET_POINT_RANGE' }),
});
const noParams = z.object({}).default({});
const textMessageParams = z.object({
  text: z.string({ message: 'COMMAND_TEXT_REQUIRED' }).trim().min(1, { message: 'COMMAND_TEXT_REQUIRED' }).max(MAX_TEXT_MESSAGE, { message: 'COMMAND_TEXT_TOO_LONG' }),
  /** Read aloud by the terminal (TTS), besides being shown. */
  tts: z.boolean().default(false),
  emergency: z.boolean().default(false),
});
const terminalControlParams = z.object({
  action: z.enum(TERMINAL_CONTROL_ACTIONS, { message: 'COMMAND_CONTROL_ACTION' }),
});
const customParams = z.object({
  name: z.string({ message: 'COMMAND_NAME_REQUIRED' }).trim().min(1, { message: 'COMMAND_NAME_REQUIRED' }).max(64, { message: 'COMMAND_NAME_TOO_LONG' }),
  payload: z
    .record(z.string(), z.unknown(), { message: 'COMMAND_PAYLOAD_OBJECT' })
    .default({})
    .refine((p) => jsonBytes(p) <= MAX_CUSTOM_PAYLOAD_BYTES, { message: 'COMMAND_PAYLOAD_TOO_LARGE' }),
});

/** What a command does: its kind and that kind's parameters. */
export const commandSpecSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('report_interval'), params: reportIntervalParams }),
  z.object({ kind: z.literal('set_point'), params: setPointParams }),
  z.object({ kind: z.literal('lock'), params: noParams }),
  z.object({ kind: z.literal('unlock'), params: noParams }),
  z.object({ kind: z.literal('reboot'), params: noParams }),
  z.object({ kind: z.literal('custom'), params: customParams }),
  z.object({ kind: z.literal('position_query'), params: noParams }),
  z.object({ kind: z.literal('text_message'), params: textMessageParams }),
  z.object({ kind: z.literal('terminal_control'), params: terminalControlParams }),
]);
export type CommandSpec = z.infer<typeof commandSpecSchema>;

/** A request: the device (its row id, in the caller's organisation tree), what to do, and why. */
export const commandRequestSchema = z.intersection(
  z.object({
    deviceRef: z.uuid({ message: 'COMMAND_DEVICE_REQUIRED' }),
    remark: z.string().trim().max(500).default(''),
  }),
  commandSpecSchema,
);
export type CommandRequest = z.infer<typeof commandRequestSchema>;
export type CommandRequestInput = z.input<typeof commandRequestSchema>;

/** A review: approve (sent at once), or reject with a reason (required). */
/** Reviewing signs the command: the reviewer's password again and the meaning (approved or rejected by default). */
export const commandReviewSchema = z
  .object({
    approve: z.boolean(),
    reason: z.string().trim().max(500).default(''),
  })
  .extend(signatureFieldsSchema.shape)
  .refine((r) => r.approve || r.reason !== '', { message: 'COMMAND_REASON_REQUIRED', path: ['reason'] });
export type CommandReview = z.infer<typeof commandReviewSchema>;

const person = z.object({ id: z.string().nullable(), account: z.string(), name: z.string() });

export const commandRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  /** The device's row id and its id on the wire (IMEI or serial). */
  deviceRef: z.string(),
  deviceId: z.string(),
  deviceName: z.string(),
  kind: z.enum(COMMAND_KINDS),
  params: z.record(z.string(), z.unknown()),
  remark: z.string(),
  status: z.enum(COMMAND_STATUSES),
  requester: person,
  requestedAt: z.string(),
  reviewer: person.nullable(),
  reviewedAt: z.string().nullable(),
  /** The reviewer's reason (always given for a rejection). */
  reviewReason: z.string(),
  sentAt: z.string().nullable(),
  /** When the device's acknowledgement came (ok or not). */
  ackAt: z.string().nullable(),
  failure: z.enum(COMMAND_FAILURES).nullable(),
  /** The device's message in its acknowledgement. */
  result: z.string().nullable(),
  updatedAt: z.string(),
});
export type CommandRow = z.infer<typeof commandRowSchema>;

/** A page of commands with how many of each status the filters (without the status) match. */
export const commandPageSchema = z.object({
  rows: z.array(commandRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
  counts: z.record(z.enum(COMMAND_STATUSES), z.number().int()),
});
export type CommandPage = z.infer<typeof commandPageSchema>;

/** What a command's story records; nothing in it is ever changed or removed. */
export const COMMAND_EVENT_KINDS = ['requested', 'cancelled', 'approved', 'rejected', 'sent', 'delivered', 'acknowledged', 'failed'] as const;
export type CommandEventKind = (typeof COMMAND_EVENT_KINDS)[number];

export const commandEventRowSchema = z.object({
  id: z.number(),
  at: z.string(),
  kind: z.enum(COMMAND_EVENT_KINDS),
  /** The person's account; null for what the device or the server did. */
  actor: z.string().nullable(),
  /** requested: { kind, params, remark }; approved / rejected: { reason }; sent: { topic } (MQTT)
   * or { channel: 'jt808' }; delivered (JT/T 808: the node holding the terminal's connection wrote
   * the frame): { node, messageId, serial }; acknowledged: { message, deviceTime }; failed: { failure, message }. */
  detail: z.record(z.string(), z.unknown()),
});
export type CommandEventRow = z.infer<typeof commandEventRowSchema>;

export const commandQuerySchema = listQuerySchema.extend({
  status: csvFilter(z.enum(COMMAND_STATUSES), 10),
  kind: csvFilter(z.enum(COMMAND_KINDS), 10),
  deviceRef: z.preprocess(blankAsUndefined, z.uuid().optional()),
  /** Device id or name contains. */
  keyword: z.preprocess(blankAsUndefined, z.string().trim().max(64).optional()),
  requesterId: z.preprocess(blankAsUndefined, z.uuid().optional()),
  /** 'true': only the caller's own requests. */
  mine: z.preprocess(blankAsUndefined, z.enum(['true', 'false']).optional()),
  /** Requested in [from, to). */
  from: z.preprocess(blankAsUndefined, isoInstant.optional()),
  to: z.preprocess(blankAsUndefined, isoInstant.optional()),
  orgId: z.preprocess(blankAsUndefined, z.uuid().optional()),
});
export type CommandQuery = z.infer<typeof commandQuerySchema>;

/** The message the server publishes on `devices/<deviceId>/command`. */
export const commandMessageSchema = z.object({
  id: z.string(),
  kind: z.enum(COMMAND_KINDS),
  params: z.record(z.string(), z.unknown()),
  time: z.string(),
});
export type CommandMessage = z.infer<typeof commandMessageSchema>;

/** The acknowledgement a device publishes on `devices/<deviceId>/command/ack`. */
export const commandAckSchema = z.object({
  id: z.uuid(),
  ok: z.boolean(),
  message: z.string().max(500).optional(),
  time: isoInstant.optional(),
});
export type CommandAck = z.infer<typeof commandAckSchema>;

export const commandTopic = (deviceId: string) => `devices/${deviceId}/command`;
export const commandAckTopic = (deviceId: string) => `devices/${deviceId}/command/ack`;
export const COMMAND_TOPIC = /^devices\/([^/]+)\/command$/;
export const COMMAND_ACK_TOPIC = /^devices\/([^/]+)\/command\/ack$/;

/** A status no later step changes. */
export const isFinalStatus = (s: CommandStatus) => s !== 'pending_review' && s !== 'sent';

export const COMMAND_API = {
  commands: '/api/iot/v2/commands',
} as const;
