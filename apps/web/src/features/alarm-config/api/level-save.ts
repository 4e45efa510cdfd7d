// POST /api/iot/v2/alarm-levels (a new level) and PUT /api/iot/v2/alarm-levels/:id (a change);
// 409 LEVEL_CODE_TAKEN when the organisation already has the code.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ALARM_API, type LevelBody, type LevelRow } from '@iotc/shared/alarm';
import { ALARM_LEVELS_KEY } from '../../../api/alarm-levels.ts';
import { request } from '../../../api/client.ts';

export interface LevelSave {
  /** Absent: create. */
  id?: string;
  body: LevelBody;
}

export function saveLevel({ id, body }: LevelSave): Promise<LevelRow> {
  return id
    ? request<LevelRow>(`${ALARM_API.levels}/${encodeURIComponent(id)}`, { method: 'PUT', body, silent: true })
    : request<LevelRow>(ALARM_API.levels, { method: 'POST', body, silent: true });
}

export function useSaveLevel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveLevel,
    onSuccess: () => client.invalidateQueries({ queryKey: ALARM_LEVELS_KEY }),
  });
}
