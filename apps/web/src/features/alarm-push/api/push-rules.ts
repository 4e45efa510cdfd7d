// GET /api/iot/v2/push-rules (`keyword`, `enabled`, `orgId` filters): the push rules of the
// caller's organisations, webhook secrets masked; and every rule's name for the delivery log's
// rule filter (one page of the largest size, by name).
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { PUSH_API, type PushRuleRow } from '@iotc/shared/alarm-push';
import type { Page } from '@iotc/shared/envelope';
import { MAX_PAGE_SIZE } from '@iotc/shared/list';
import { request } from '../../../api/client.ts';
import { listQueryOptions, type ListState } from '../../../lib/list-query.ts';

/** Every push rules query, whatever its filters: what rule mutations invalidate. */
export const PUSH_RULES_KEY = ['list', PUSH_API.rules] as const;

export function usePushRules(state: ListState, enabled = true) {
  return useQuery({ ...listQueryOptions<PushRuleRow>(PUSH_API.rules, state), enabled });
}

export interface RuleChoice {
  value: string;
  label: string;
}

export function ruleChoicesQueryOptions() {
  return queryOptions({
    queryKey: [...PUSH_RULES_KEY, 'choices'] as const,
    queryFn: ({ signal }) =>
      request<Page<PushRuleRow>>(PUSH_API.rules, { query: { page: 1, size: MAX_PAGE_SIZE, sort: 'name,asc' }, signal }).then((p) =>
        p.rows.map((r): RuleChoice => ({ value: r.id, label: r.name })),
      ),
    staleTime: 60_000,
  });
}

export function useRuleChoices(enabled = true) {
  return useQuery({ ...ruleChoicesQueryOptions(), enabled });
}

/** After a rule was created, changed or deleted: its lists and the names the log filters by. */
export function invalidatePushRules(client: QueryClient): Promise<unknown> {
  return client.invalidateQueries({ queryKey: PUSH_RULES_KEY });
}
