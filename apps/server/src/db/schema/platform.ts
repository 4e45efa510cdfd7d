// The platform's own settings (modules/map-tiles): one row per key, its value as JSON, set by the
// platform administrator; a key without a row keeps its start-up default (the environment).
import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './org.ts';

export const platformSettings = pgTable('platform_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

/**
 * The geocoder's answers (modules/geocode), shared by every organisation as the geocoder's are
 * public: the key says what was asked ('search:<lang>:<text>' or 'reverse:<lang>:<lat>,<lon>' at
 * about 11 m), the value is the answer as the API gives it. Old rows are refreshed when asked
 * again after their time.
 */
export const geocodeCache = pgTable('geocode_cache', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
});
