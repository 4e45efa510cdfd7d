// PUT /api/iot/v2/retention-rules/:orgId: saves an organisation's rule; the tree (effective
// values of its descendants too) refreshes. Refusals are shown in the form.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RETENTION_API, type RetentionRuleBody } from '@iotc/shared/retention';
import { request } from '../../../api/client.ts';
import { retentionRulesQueryOptions } from './retention-rules.ts';

export function saveRetentionRule({ orgId, ...body }: RetentionRuleBody & { orgId: string }): Promise<unknown> {
  return request(`${RETENTION_API.rules}/${encodeURIComponent(orgId)}`, { method: 'PUT', body, silent: true });
}

export function useSaveRetentionRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveRetentionRule,
    onSuccess: () => client.invalidateQueries({ queryKey: retentionRulesQueryOptions().queryKey }),
  });
}
