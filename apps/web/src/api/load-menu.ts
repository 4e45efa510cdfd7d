// POST /iot-cloud-auth/menu/v1/loadMenu: the user's menu tree, named in the request language.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MenuItem } from '@iotc/shared/auth';
import { API } from '@iotc/shared/auth-api';
import type { Lang } from '@iotc/shared/i18n';
import type { ScenarioType } from '@iotc/shared/constants';
import { useScenarioType } from '../lib/session.ts';
import { currentLang, useLang } from '../lib/language.ts';
import { queryClient } from '../lib/query-client.ts';
import { request } from './client.ts';

export function loadMenu(type: ScenarioType | undefined, signal?: AbortSignal, silent = false): Promise<MenuItem[]> {
  return request<MenuItem[]>(API.loadMenu, { method: 'POST', body: type ? { type } : {}, signal, silent });
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

/**
 * The menu of the current language and scenario, asked for before the console frame renders (a
 * console address loaded with a session, app/router.tsx): the frame then draws its navigation,
 * and the view host its screen, in their first render rather than after a round trip of their
 * own. Asked for silently: a failure is left to the frame's own call, which reports it with the
 * frame's other first calls (one notice for the lot, api/client.ts), so the failed answer is
 * dropped and the frame, once mounted, asks again.
 */
export async function prefetchMenu(type: ScenarioType | undefined): Promise<void> {
  const options = menuQueryOptions(currentLang(), type);
  await queryClient.prefetchQuery({ ...options, queryFn: ({ signal }) => loadMenu(type, signal, true) });
  if (queryClient.getQueryState(options.queryKey)?.status === 'error') await queryClient.resetQueries({ queryKey: options.queryKey, exact: true });
}
