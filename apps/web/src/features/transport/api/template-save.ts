// POST /api/iot/v2/transport-templates and PUT /:id: a template's name and settings
// (transport:write); the form shows a refusal itself.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TRANSPORT_API, type TemplateBody, type TemplateRow } from '@iotc/shared/transport';
import { request } from '../../../api/client.ts';
import { templatePath } from './template-detail.ts';
import { invalidateTemplates } from './templates.ts';

export function saveTemplate({ id, body }: { id: string | null; body: TemplateBody }): Promise<TemplateRow> {
  return id
    ? request<TemplateRow>(templatePath(id), { method: 'PUT', body, silent: true })
    : request<TemplateRow>(TRANSPORT_API.templates, { method: 'POST', body, silent: true });
}

export function useSaveTemplate() {
  const client = useQueryClient();
  return useMutation({ mutationFn: saveTemplate, onSuccess: () => invalidateTemplates(client) });
}
