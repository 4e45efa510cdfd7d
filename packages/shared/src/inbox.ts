// The header's inbox (modules/inbox, web features/inbox): the signed-in user's in-app alarm
// deliveries and the platform notices addressed to them, newest first, each read or unread for
// that user alone. A new in-app delivery reaches the user's open tabs over the live socket
// ('inbox' message), so the bell's count follows without a reload.
import { z } from 'zod';
import { listQuerySchema } from './list.ts';

/** What an inbox item is: an alarm delivered in-app to the user, or a platform notice. */
export const INBOX_KINDS = ['alarm', 'notice'] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

/** All items, only those the user has not read yet, only alarms or only notices. */
export const INBOX_FILTERS = ['all', 'unread', 'alarms', 'notices'] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

/** Most items one "mark read" call names. */
export const INBOX_MAX_MARK = 100;

export const inboxQuerySchema = listQuerySchema.omit({ sort: true }).extend({
  filter: z.enum(INBOX_FILTERS).default('all'),
});
export type InboxQuery = z.infer<typeof inboxQuerySchema>;

export const inboxItemSchema = z.object({
  /** The delivery's id (alarm) or the notice's id. */
  id: z.string(),
  kind: z.enum(INBOX_KINDS),
  /** The delivery's subject (in its push rule's language), or the notice's title in the request language. */
  title: z.string(),
  body: z.string(),
  /** A notice's level; null for an alarm. */
  level: z.enum(['info', 'warning', 'important']).nullable(),
  /** The alarm the delivery is about; null for a notice. */
  alarmId: z.string().nullable(),
  /** The transport task of that alarm, and its code; null when it has none. */
  taskId: z.string().nullable(),
  taskCode: z.string().nullable(),
  /** When it was delivered or published (ISO 8601 UTC). */
  at: z.string(),
  read: z.boolean(),
});
export type InboxItem = z.infer<typeof inboxItemSchema>;

export const inboxCountSchema = z.object({ unread: z.number().int() });
export type InboxCount = z.infer<typeof inboxCountSchema>;

export const inboxMarkBodySchema = z.object({
  ids: z.array(z.uuid()).min(1).max(INBOX_MAX_MARK),
});
export type InboxMarkBody = z.infer<typeof inboxMarkBodySchema>;

/** How many items the call marked read now (those already read, or not the caller's, are not counted). */
export const inboxMarkedSchema = z.object({ marked: z.number().int() });
export type InboxMarked = z.infer<typeof inboxMarkedSchema>;

export const INBOX_API = {
  list: '/api/iot/v2/inbox-items',
  unreadCount: '/api/iot/v2/inbox-items/unread-count',
  read: '/api/iot/v2/inbox-items/read',
  readAll: '/api/iot/v2/inbox-items/read-all',
} as const;
