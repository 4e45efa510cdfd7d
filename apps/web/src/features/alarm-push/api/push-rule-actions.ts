// The row actions of a push rule: POST /api/iot/v2/push-rules/:id/enable | disable (a disabled
// rule starts no escalation and sends no further step of running ones) and DELETE .../:id (its
// deliveries stay in the log under its name).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PUSH_API, type PushRuleRow } from '@iotc/shared/alarm-push';
import { request } from '../../../api/client.ts';
import { invalidatePushRules } from './push-rules.ts';

const one = (id: string) => `${PUSH_API.rules}/${encodeURIComponent(id)}`;

export function setPushRuleEnabled({ id, enabled }: { id: string; enabled: boolean }): Promise<PushRuleRow> {
  return request<PushRuleRow>(`${one(id)}/${enabled ? 'enable' : 'disable'}`, { method: 'POST', silent: true });
}

export function deletePushRule(id: string): Promise<unknown> {
  return request(one(id), { method: 'DELETE', silent: true });
}

export function useSetPushRuleEnabled() {
  const client = useQueryClient();
  return useMutation({ mutationFn: setPushRuleEnabled, onSuccess: () => invalidatePushRules(client) });
}

export function useDeletePushRule() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deletePushRule, onSuccess: () => invalidatePushRules(client) });
}
