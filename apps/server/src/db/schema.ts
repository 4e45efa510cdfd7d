// The database schema as code (Drizzle), one file per area under db/schema/. Migrations under
// apps/server/drizzle are generated from it with `npm run db:generate` and applied at start on
// PGlite and PostgreSQL alike.
export * from './schema/org.ts';
export * from './schema/place.ts';
export * from './schema/auth.ts';
export * from './schema/dict.ts';
export * from './schema/audit.ts';
export * from './schema/outbox.ts';
export * from './schema/device.ts';
export * from './schema/telemetry.ts';
export * from './schema/retention.ts';
export * from './schema/jt808.ts';
export * from './schema/home.ts';
export * from './schema/alarm.ts';
export * from './schema/work-order.ts';
export * from './schema/fault.ts';
export * from './schema/transport.ts';
export * from './schema/warehouse.ts';
export * from './schema/command.ts';
export * from './schema/report.ts';
export * from './schema/ledger.ts';
export * from './schema/platform.ts';
export * from './schema/inbox.ts';
export * from './schema/signature.ts';
export * from './schema/product.ts';
