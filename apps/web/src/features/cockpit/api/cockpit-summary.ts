// GET /api/iot/v2/cockpit: the wall display's summary (KPIs, alarms by level, compliance today,
// provinces, vehicles, trends, newest alarms), re-read every 30 s while the cockpit is open.
// Level names come in the request's language, so the language is part of the key.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { COCKPIT_API, type CockpitSummary } from '@iotc/shared/cockpit';
import type { Lang } from '@iotc/shared/i18n';
import { request } from '../../../api/client.ts';

export const COCKPIT_REFRESH_MS = 30_000;

export function fetchCockpitSummary(signal?: AbortSignal): Promise<CockpitSummary> {
  return request<CockpitSummary>(COCKPIT_API.summary, { signal });
}

export function cockpitSummaryQueryOptions(lang: Lang) {
  return queryOptions({
    queryKey: ['cockpit', 'summary', lang] as const,
    queryFn: ({ signal }) => fetchCockpitSummary(signal),
    refetchInterval: COCKPIT_REFRESH_MS,
    // A wall display stays open for days: keep refreshing when the window is in the background.
    refetchIntervalInBackground: true,
  });
}

export function useCockpitSummary(lang: Lang) {
  return useQuery(cockpitSummaryQueryOptions(lang));
}
