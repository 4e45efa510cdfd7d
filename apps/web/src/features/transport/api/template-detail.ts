// GET /api/iot/v2/transport-templates/:id: one template, to fill a new task or the template form.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { TRANSPORT_API, type TemplateRow } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';
import { TEMPLATE_KEY } from './templates.ts';

export const templatePath = (id: string) => `${TRANSPORT_API.templates}/${encodeURIComponent(id)}`;

export function templateQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...TEMPLATE_KEY, id] as const,
    queryFn: ({ signal }) => request<TemplateRow>(templatePath(id), { signal }),
  });
}

export function useTemplate(id: string | null) {
  return useQuery({ ...templateQueryOptions(id ?? ''), enabled: !!id });
}
