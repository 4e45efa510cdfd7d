// GET /api/iot/v2/home/alerts: conditions read off the devices' latest states (offline, low
// battery, temperature or humidity outside the bound asset's range, door open), page by page.
import { useInfiniteQuery } from '@tanstack/react-query';
import { HOME_API, type HomeAlert } from '@iotc/shared/live';
import { feedQueryOptions } from './feed.ts';

export function homeAlertsQueryOptions() {
  return feedQueryOptions<HomeAlert>(HOME_API.alerts);
}

export function useHomeAlerts() {
  return useInfiniteQuery(homeAlertsQueryOptions());
}
