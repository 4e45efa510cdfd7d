// Storage figures per organisation (issue 24, item 5), for the platform administrator: readings
// kept as rows and in packs, their bytes, bytes per reading, growth per day, each organisation's
// share, the platform's totals, and the days left at the current growth on the free disk space.
import { z } from 'zod';
import { listQuerySchema, pageSchema } from './list.ts';

export const STORAGE_API = { list: '/api/iot/v2/storage-figures' } as const;

export const storageQuerySchema = listQuerySchema;
export type StorageQuery = z.infer<typeof storageQuerySchema>;

/** The figures of one organisation (or of the platform: the totals) as of its latest snapshot. */
export const storageFiguresSchema = z.object({
  rowReadings: z.number().int(),
  packedReadings: z.number().int(),
  packs: z.number().int(),
  rowBytes: z.number().int(),
  packBytes: z.number().int(),
  /**
   * Bytes (rows and packs) per reading, a reading that is both a row and in a pack counted once:
   * over the larger of the two counts (null without readings).
   */
  bytesPerReading: z.number().nullable(),
  /** Bytes a day over the last 7 daily snapshots (fewer when fewer exist); null with one only. */
  growthPerDay: z.number().nullable(),
});
export type StorageFigures = z.infer<typeof storageFiguresSchema>;

export const storageRowSchema = storageFiguresSchema.extend({
  orgId: z.string(),
  orgCode: z.string(),
  orgName: z.string(),
  /** The day (UTC, YYYY-MM-DD) of the snapshot the figures come from. */
  day: z.string(),
  /** Share of the platform's bytes (0..1; null while the platform holds none). */
  share: z.number().nullable(),
});
export type StorageRow = z.infer<typeof storageRowSchema>;

export const storagePageSchema = pageSchema(storageRowSchema).extend({
  /** The whole platform: every organisation's latest figures added up. */
  platform: storageFiguresSchema,
  /** Free bytes where the database keeps its files, when known (PGlite's data directory); null on PostgreSQL. */
  freeBytes: z.number().nullable(),
  /** freeBytes over the platform's growth per day; null when either is unknown or nothing grows. */
  daysLeft: z.number().nullable(),
  /** When the newest snapshot was taken (ISO 8601), null before the first. */
  takenAt: z.string().nullable(),
});
export type StoragePage = z.infer<typeof storagePageSchema>;
