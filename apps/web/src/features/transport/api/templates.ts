// GET /api/iot/v2/transport-templates (`keyword`, `orgId`): one page of the templates screen, the
// search behind the template pickers, and the keys every template change makes stale.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { TRANSPORT_API, type TemplateRow } from '@iotc/shared/transport';
import type { RemoteOption } from '../../../components/remote-select.tsx';
import { fetchList, listQueryOptions, type ListState } from '../../../lib/list-query.ts';

/** Every template list: listQueryOptions keys start so. */
export const TEMPLATE_LISTS_KEY = ['list', TRANSPORT_API.templates] as const;
/** One template read by id. */
export const TEMPLATE_KEY = ['transportTemplate'] as const;

export function invalidateTemplates(client: QueryClient): Promise<unknown> {
  return Promise.all([client.invalidateQueries({ queryKey: TEMPLATE_LISTS_KEY }), client.invalidateQueries({ queryKey: TEMPLATE_KEY })]);
}

export function useTemplates(state: ListState) {
  return useQuery(listQueryOptions<TemplateRow>(TRANSPORT_API.templates, state));
}

/** Picker options: the first 20 templates whose name contains `search`. */
export async function searchTemplates(search: string, signal: AbortSignal): Promise<RemoteOption[]> {
  const keyword = search.trim();
  const page = await fetchList<TemplateRow>(TRANSPORT_API.templates, { page: 1, size: 20, sort: 'name,asc', filters: keyword ? { keyword } : {} }, signal);
  return page.rows.map((r) => ({ value: r.id, label: `${r.name} (${r.origin.name} → ${r.destination.name})` }));
}
