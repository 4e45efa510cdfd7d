// GET /api/iot/v2/notifications: platform notifications (announcements), newest first, page by
// page. Titles and bodies come in the request's language, so the language is part of the key.
import { useInfiniteQuery } from '@tanstack/react-query';
import type { Lang } from '@iotc/shared/i18n';
import { HOME_API, type Notice } from '@iotc/shared/live';
import { feedQueryOptions } from './feed.ts';

export function noticesQueryOptions(lang: Lang) {
  return feedQueryOptions<Notice>(HOME_API.notices, [lang]);
}

export function useNotices(lang: Lang) {
  return useInfiniteQuery(noticesQueryOptions(lang));
}
