// DELETE /api/iot/v2/alarm-levels/:id (409 LEVEL_IN_USE while a policy rule or an alarm uses it).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ALARM_API } from '@iotc/shared/alarm';
import { ALARM_LEVELS_KEY } from '../../../api/alarm-levels.ts';
import { request } from '../../../api/client.ts';

export function deleteLevel(id: string): Promise<unknown> {
  // Silent: the confirmation shows the refusal itself, in the user's language.
  return request(`${ALARM_API.levels}/${encodeURIComponent(id)}`, { method: 'DELETE', silent: true });
}

export function useDeleteLevel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteLevel,
    onSuccess: () => client.invalidateQueries({ queryKey: ALARM_LEVELS_KEY }),
  });
}
