// The list contract of every collection (DESIGN.md): `{ page, size, sort, filters... }` in the
// query, `{ rows, total, page, size }` back; and the export formats of the same query.
import { z } from 'zod';

/** Largest page the API serves; tables offer 10/50/100 (main) or 10/20/30/50 (small). */
export const MAX_PAGE_SIZE = 100;
/** Most rows one export writes; narrow the filters for more. */
export const MAX_EXPORT_ROWS = 100_000;

/** `field,asc` or `field,desc`. */
export const SORT_PATTERN = /^[A-Za-z][A-Za-z0-9_]*,(asc|desc)$/;

export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000_000).default(1),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
  sort: z
    .string()
    .regex(SORT_PATTERN, { message: 'sort must look like field,asc or field,desc' })
    .optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** A blank query or form value (empty or spaces) counts as absent. */
export const blankAsUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** A filter of several values: a comma-separated query value (blank: absent), at most `max` of them. */
export function csvFilter<T extends z.ZodType>(item: T, max: number) {
  return z.preprocess((v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.split(',')) : v), z.array(item).max(max).optional());
}

export const exportFormatSchema = z.enum(['csv', 'xlsx']);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

/** An ISO 8601 instant in a query value (the client sends UTC). */
export const isoInstant = z.iso.datetime({ offset: true });

export function pageSchema<T extends z.ZodType>(row: T) {
  return z.object({ rows: z.array(row), total: z.number().int(), page: z.number().int(), size: z.number().int() });
}
