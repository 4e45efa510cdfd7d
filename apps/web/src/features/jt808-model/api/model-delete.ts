// DELETE /api/iot/v2/jt808-models/:id.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { JT808_MODEL_API } from '@iotc/shared/jt808-models';
import { request } from '../../../api/client.ts';
import { MODELS_KEY } from './models.ts';

export function deleteModel(id: string): Promise<unknown> {
  return request(`${JT808_MODEL_API}/${encodeURIComponent(id)}`, { method: 'DELETE', silent: true });
}

export function useDeleteModel() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteModel, onSuccess: () => client.invalidateQueries({ queryKey: MODELS_KEY }) });
}
