// POST /api/iot/v2/alarm-policies (a new policy) and PUT /api/iot/v2/alarm-policies/:id (the
// whole policy replaced; the open alarms of rules it no longer runs are cleared).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ALARM_API, type PolicyBody, type PolicyRow } from '@iotc/shared/alarm';
import { request } from '../../../api/client.ts';
import { invalidatePolicies } from './policies.ts';

export interface PolicySave {
  /** Absent: create. */
  id?: string;
  body: PolicyBody;
}

export function savePolicy({ id, body }: PolicySave): Promise<PolicyRow> {
  return id
    ? request<PolicyRow>(`${ALARM_API.policies}/${encodeURIComponent(id)}`, { method: 'PUT', body, silent: true })
    : request<PolicyRow>(ALARM_API.policies, { method: 'POST', body, silent: true });
}

export function useSavePolicy() {
  const client = useQueryClient();
  return useMutation({ mutationFn: savePolicy, onSuccess: () => invalidatePolicies(client) });
}
