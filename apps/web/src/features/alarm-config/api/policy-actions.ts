// The row actions of a policy: POST /api/iot/v2/alarm-policies/:id/enable | disable (disabling
// clears its open alarms), POST .../:id/copy (a disabled copy, named after the original) and
// DELETE .../:id (its alarms are kept, the open ones cleared).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ALARM_API, type PolicyRow } from '@iotc/shared/alarm';
import { request } from '../../../api/client.ts';
import { invalidatePolicies, POLICIES_LIST_KEY } from './policies.ts';

const one = (id: string) => `${ALARM_API.policies}/${encodeURIComponent(id)}`;

export function setPolicyEnabled({ id, enabled }: { id: string; enabled: boolean }): Promise<PolicyRow> {
  return request<PolicyRow>(`${one(id)}/${enabled ? 'enable' : 'disable'}`, { method: 'POST', silent: true });
}

export function copyPolicy(id: string): Promise<PolicyRow> {
  return request<PolicyRow>(`${one(id)}/copy`, { method: 'POST', silent: true });
}

export function deletePolicy(id: string): Promise<unknown> {
  return request(one(id), { method: 'DELETE', silent: true });
}

export function useSetPolicyEnabled() {
  const client = useQueryClient();
  return useMutation({ mutationFn: setPolicyEnabled, onSuccess: () => client.invalidateQueries({ queryKey: POLICIES_LIST_KEY }) });
}

export function useCopyPolicy() {
  const client = useQueryClient();
  return useMutation({ mutationFn: copyPolicy, onSuccess: () => invalidatePolicies(client) });
}

export function useDeletePolicy() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deletePolicy, onSuccess: () => invalidatePolicies(client) });
}
