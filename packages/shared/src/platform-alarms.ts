// Platform alarms: conditions of the platform itself (not of a device) that the platform
// administrator must act on, such as a database that cannot write. The server holds them in its
// process (the condition may be that the database can store nothing); the console shows the
// active ones to platform administrators on every screen.
import { z } from 'zod';

export const PLATFORM_ALARMS_API = { list: '/api/iot/v2/platform/alarms' } as const;

export const PLATFORM_ALARM_CODES = ['DATABASE_NOT_WRITABLE'] as const;

export const platformAlarmSchema = z.object({
  /** What the condition is (one alarm per code at a time). */
  code: z.enum(PLATFORM_ALARM_CODES),
  level: z.literal('important'),
  status: z.enum(['active', 'cleared']),
  titleZh: z.string(),
  titleEn: z.string(),
  bodyZh: z.string(),
  bodyEn: z.string(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  /** Figures of the condition (its cause, reports refused ...). */
  details: z.record(z.string(), z.unknown()),
});
export type PlatformAlarm = z.infer<typeof platformAlarmSchema>;

/** How often the console asks for them (the server notices a change within a few seconds). */
export const PLATFORM_ALARMS_REFRESH_MS = 15_000;
