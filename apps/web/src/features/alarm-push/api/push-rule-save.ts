// POST /api/iot/v2/push-rules (a new rule) and PUT /api/iot/v2/push-rules/:id (the whole rule
// replaced; a webhook sent back with the masked secret keeps the secret stored for its address).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PUSH_API, type PushRuleBody, type PushRuleRow } from '@iotc/shared/alarm-push';
import { request } from '../../../api/client.ts';
import { invalidatePushRules } from './push-rules.ts';

export interface PushRuleSave {
  /** Absent: create. */
  id?: string;
  body: PushRuleBody;
}

export function savePushRule({ id, body }: PushRuleSave): Promise<PushRuleRow> {
  // Silent: the drawer shows the refusal above the form, in the user's language.
  return id
    ? request<PushRuleRow>(`${PUSH_API.rules}/${encodeURIComponent(id)}`, { method: 'PUT', body, silent: true })
    : request<PushRuleRow>(PUSH_API.rules, { method: 'POST', body, silent: true });
}

export function useSavePushRule() {
  const client = useQueryClient();
  return useMutation({ mutationFn: savePushRule, onSuccess: () => invalidatePushRules(client) });
}
