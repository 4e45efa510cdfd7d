// The header's inbox (modules/inbox): which in-app deliveries and platform notices each user has
// read. An item is a delivery (deliveries.id) or a notice (notices.id); an item without a row is
// unread. A row goes with its user.
import { index, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './org.ts';

export const inboxReads = pgTable(
  'inbox_reads',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A delivery's or a notice's id. */
    itemId: uuid('item_id').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'inbox_reads_pk', columns: [t.userId, t.itemId] }), index('inbox_reads_user_idx').on(t.userId, t.readAt)],
);
