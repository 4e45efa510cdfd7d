// Platform notices on the home screen (modules/home).
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orgs } from './org.ts';

/** Platform notifications (announcements) on the home screen: for one organisation's tree, or everyone (null). */
export const notices = pgTable(
  'notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').references(() => orgs.id, { onDelete: 'cascade' }),
    titleZh: text('title_zh').notNull(),
    titleEn: text('title_en').notNull(),
    bodyZh: text('body_zh').notNull().default(''),
    bodyEn: text('body_en').notNull().default(''),
    level: text('level', { enum: ['info', 'warning', 'important'] }).notNull().default('info'),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notices_published_idx').on(t.publishedAt)],
);
