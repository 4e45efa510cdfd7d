// The place library (modules/place, issue 26 item 2): named places of an organisation, a circle
// or a polygon. Alarm policies' allowed and stay places and transport templates keep the place's
// id beside a copy of its shape in their JSON; tasks and warehouses point at it by column. A
// change to a place is written into every copy; a place still in use is not deleted.
import { doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { orgs } from './org.ts';

export const places = pgTable(
  'places',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    shape: text('shape', { enum: ['circle', 'polygon'] }).notNull(),
    /** The circle's centre, or the polygon's centroid. */
    lat: doublePrecision('lat').notNull(),
    lon: doublePrecision('lon').notNull(),
    /** The circle's radius; for a polygon, the distance from the centroid to its farthest corner. */
    radiusM: integer('radius_m').notNull(),
    /** A polygon's ring as [lat, lon] corners (not closed); null for a circle. */
    polygon: jsonb('polygon').$type<[number, number][]>(),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('places_org_name_uq').on(t.orgId, t.name), index('places_org_idx').on(t.orgId, t.updatedAt)],
);
