// Dictionaries (modules/dict).
import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

export const dictTypes = pgTable('dict_types', {
  code: text('code').primaryKey(),
  nameZh: text('name_zh').notNull(),
  nameEn: text('name_en').notNull(),
  sort: integer('sort').notNull().default(0),
});

export const dictItems = pgTable(
  'dict_items',
  {
    dictCode: text('dict_code')
      .notNull()
      .references(() => dictTypes.code, { onDelete: 'cascade' }),
    dictKey: text('dict_key').notNull(),
    valZh: text('val_zh').notNull(),
    valEn: text('val_en').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.dictCode, t.dictKey] })],
);
