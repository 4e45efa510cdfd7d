// The outbox as the platform administrator reads it: every mail and text the platform sent or,
// without SMTP_URL / SMS_GATEWAY_URL, only kept (verification codes of a fresh install included).
import { z } from 'zod';
import { blankAsUndefined, listQuerySchema } from './list.ts';

export const OUTBOX_API = { list: '/api/iot/v2/outbox-messages' } as const;

export const OUTBOX_CHANNELS = ['email', 'sms'] as const;
export const OUTBOX_STATUSES = ['outbox', 'sent', 'failed'] as const;

export const outboxQuerySchema = listQuerySchema.extend({
  channel: z.preprocess(blankAsUndefined, z.enum(OUTBOX_CHANNELS).optional()),
  status: z.preprocess(blankAsUndefined, z.enum(OUTBOX_STATUSES).optional()),
  /** Part of the recipient, case-insensitive. */
  recipient: z.preprocess(blankAsUndefined, z.string().trim().max(254).optional()),
});
export type OutboxQuery = z.infer<typeof outboxQuerySchema>;

export const outboxRowSchema = z.object({
  id: z.number().int(),
  channel: z.enum(OUTBOX_CHANNELS),
  recipient: z.string(),
  subject: z.string().nullable(),
  body: z.string(),
  status: z.enum(OUTBOX_STATUSES),
  error: z.string().nullable(),
  orgName: z.string().nullable(),
  createdAt: z.string(),
});
export type OutboxRow = z.infer<typeof outboxRowSchema>;
