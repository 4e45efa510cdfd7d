// Column and table helpers shared by the schema's areas.
import { bigserial, customType, index, jsonb, pgTable, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Binary values (ledger hashes, packed tracks). */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * A row's story (an alarm's, a work order's, a task's, a command's): each event appended, never
 * changed, and removed with its row. `actor` is the user's account, or null for the platform;
 * the index serves the story in order (by time or by insertion).
 */
export function eventTimeline<TKey extends string, TColumn extends string>(
  name: string,
  parent: { key: TKey; column: TColumn; references: () => AnyPgColumn },
  order: { index: string; by: 'at' | 'id' },
) {
  const parentId = uuid(parent.column).notNull().references(parent.references, { onDelete: 'cascade' });
  const columns = {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ...({ [parent.key]: parentId } as { [K in TKey]: typeof parentId }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    actor: text('actor'),
    detail: jsonb('detail').notNull().default({}),
  };
  return pgTable(name, columns, (t) => [index(order.index).on((t as unknown as Record<TKey, AnyPgColumn>)[parent.key], order.by === 'at' ? t.at : t.id)]);
}
