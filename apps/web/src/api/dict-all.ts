// GET /iot-cloud-auth/dict/v1/all/config: every dictionary, cached in local storage under
// `iot-dictionary` per language so lookups work before the call answers.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Dict } from '@iotc/shared/auth';
import { API } from '@iotc/shared/auth-api';
import type { Lang } from '@iotc/shared/i18n';
import { getItem, setItem } from '../lib/storage.ts';
import { useLang } from '../lib/language.ts';
import { request } from './client.ts';

const CACHE_KEY = 'iot-dictionary';
const STALE_MS = 30 * 60_000;

type DictCache = Partial<Record<Lang, { savedAt: number; dicts: Dict[] }>>;

function readCache(): DictCache {
  const value = getItem<DictCache>(CACHE_KEY);
  return value && typeof value === 'object' ? value : {};
}

export async function fetchDicts(lang: Lang, signal?: AbortSignal): Promise<Dict[]> {
  const dicts = await request<Dict[]>(API.dictAll, { signal });
  setItem(CACHE_KEY, { ...readCache(), [lang]: { savedAt: Date.now(), dicts } });
  return dicts;
}

export function dictsQueryOptions(lang: Lang) {
  return queryOptions({
    queryKey: ['dict', lang],
    queryFn: ({ signal }) => fetchDicts(lang, signal),
    initialData: () => readCache()[lang]?.dicts,
    initialDataUpdatedAt: () => readCache()[lang]?.savedAt,
    staleTime: STALE_MS,
  });
}

export function useDicts() {
  const lang = useLang();
  return useQuery(dictsQueryOptions(lang));
}

/** The text of `key` in dictionary `code`, or the key itself when unknown. */
export function dictText(dicts: Dict[] | undefined, code: string, key: string): string {
  return dicts?.find((d) => d.dictCode === code)?.children.find((c) => c.dictKey === key)?.dictVal ?? key;
}
