// POST /iot-cloud-auth/menu/v1/loadMenu: the user's menu tree, named in the request language.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MenuItem } from '@iotc/shared/auth';
import { API } from '@iotc/shared/auth-api';
import type { Lang } from '@iotc/shared/i18n';
import type { ScenarioType } from '@iotc/shared/constants';
import { useScenarioType } from '../lib/session.ts';
import { useLang } from '../lib/language.ts';
import { request } from './client.ts';

export function loadMenu(type: ScenarioType | undefined, signal?: AbortSignal): Promise<MenuItem[]> {
  return request<MenuItem[]>(API.loadMenu, { method: 'POST', body: type ? { type } : {}, signal });
}

export function menuQueryOptions(lang: Lang, type: ScenarioType | undefined) {
  return queryOptions({
    // The language is part of the key: names come back in the language of the request.
    queryKey: ['menu', lang, type ?? null],
    queryFn: ({ signal }) => loadMenu(type, signal),
    staleTime: 5 * 60_000,
  });
}

/** The menu of the current scenario, reloaded when the scenario changes. */
export function useMenu() {
  const lang = useLang();
  return useQuery(menuQueryOptions(lang, useScenarioType()));
}
