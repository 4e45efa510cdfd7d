// Platform notices (issue 26 item 5): the platform administrator publishes an announcement, in
// Chinese and English, to everyone or to one organisation's tree; it reaches the inbox of each
// user of that audience (modules/inbox) at once over the live socket, and the home screen's list.
// Withdrawing one deletes it: it leaves every inbox.
import { z } from 'zod';
import { listQuerySchema } from './list.ts';

export const NOTICE_LEVELS = ['info', 'warning', 'important'] as const;
export type NoticeLevel = (typeof NOTICE_LEVELS)[number];

/** Longest title and body, in characters. */
export const NOTICE_TITLE_MAX = 120;
export const NOTICE_BODY_MAX = 4000;

const title = (code: 'NOTICE_TITLE_ZH_REQUIRED' | 'NOTICE_TITLE_EN_REQUIRED') => z.string({ message: code }).trim().min(1, { message: code }).max(NOTICE_TITLE_MAX);
const body = z.string().trim().max(NOTICE_BODY_MAX).default('');

export const noticeBodySchema = z.object({
  titleZh: title('NOTICE_TITLE_ZH_REQUIRED'),
  titleEn: title('NOTICE_TITLE_EN_REQUIRED'),
  bodyZh: body,
  bodyEn: body,
  level: z.enum(NOTICE_LEVELS).default('info'),
  /** The organisation whose tree it is for; null or absent: everyone. */
  orgId: z.preprocess((v) => (v === '' ? null : v), z.uuid({ message: 'NOTICE_ORG_UNKNOWN' }).nullish()).transform((v) => v ?? null),
});
export type NoticeBody = z.input<typeof noticeBodySchema>;

export const noticeQuerySchema = listQuerySchema.omit({ sort: true });
export type NoticeQuery = z.infer<typeof noticeQuerySchema>;

export const noticeRowSchema = z.object({
  id: z.string(),
  titleZh: z.string(),
  titleEn: z.string(),
  bodyZh: z.string(),
  bodyEn: z.string(),
  level: z.enum(NOTICE_LEVELS),
  /** The audience: an organisation's tree, or everyone (null). */
  orgId: z.string().nullable(),
  orgName: z.string().nullable(),
  publishedAt: z.string(),
});
export type NoticeRow = z.infer<typeof noticeRowSchema>;

export const NOTICE_API = {
  /** GET a page of published notices, newest first; POST publish one (platform administrator only). */
  notices: '/api/iot/v2/platform/notices',
  /** DELETE: withdraw it. */
  one: (id: string) => `/api/iot/v2/platform/notices/${id}`,
} as const;
