// POST /api/iot/v2/jt808-models (a new mapping) and PUT /api/iot/v2/jt808-models/:id (a change);
// 409 JT808_MODEL_TAKEN when the organisation already maps the model.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { JT808_MODEL_API, type ModelBody, type ModelRow } from '@iotc/shared/jt808-models';
import { request } from '../../../api/client.ts';
import { MODELS_KEY } from './models.ts';

export function saveModel({ id, body }: { id?: string; body: ModelBody }): Promise<ModelRow> {
  return id
    ? request<ModelRow>(`${JT808_MODEL_API}/${encodeURIComponent(id)}`, { method: 'PUT', body, silent: true })
    : request<ModelRow>(JT808_MODEL_API, { method: 'POST', body, silent: true });
}

export function useSaveModel() {
  const client = useQueryClient();
  return useMutation({ mutationFn: saveModel, onSuccess: () => client.invalidateQueries({ queryKey: MODELS_KEY }) });
}
