// DELETE /api/iot/v2/transport-templates/:id: the tasks made from it keep their copied settings.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../api/client.ts';
import { templatePath } from './template-detail.ts';
import { invalidateTemplates } from './templates.ts';

export function deleteTemplate(id: string): Promise<unknown> {
  return request(templatePath(id), { method: 'DELETE', silent: true });
}

export function useDeleteTemplate() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteTemplate, onSuccess: () => invalidateTemplates(client) });
}
