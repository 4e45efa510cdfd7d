// GET /api/iot/v2/home/alerts: conditions read off the devices' latest states (offline, low
// battery, temperature or humidity outside the bound asset's range, door open), page by page,
// optionally only those of a time window (`from` / `to`, ISO 8601).
import { useInfiniteQuery } from '@tanstack/react-query';
import { HOME_API, type HomeAlert } from '@iotc/shared/live';
import { feedQueryOptions } from './feed.ts';

export interface AlertWindow {
  from?: string;
  to?: string;
}

export function homeAlertsQueryOptions(window: AlertWindow = {}) {
  const query: Record<string, string> = {};
  if (window.from) query.from = window.from;
  if (window.to) query.to = window.to;
  return feedQueryOptions<HomeAlert>(HOME_API.alerts, [], query);
}

export function useHomeAlerts(window: AlertWindow = {}) {
  return useInfiniteQuery(homeAlertsQueryOptions(window));
}
