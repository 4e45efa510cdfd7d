// GET /api/iot/v2/retention-rules: the caller's organisation tree with each organisation's own
// retention rule, its effective values and where they come from.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { RETENTION_API, type RetentionTree } from '@iotc/shared/retention';
import { request } from '../../../api/client.ts';

export function retentionRulesQueryOptions() {
  return queryOptions({
    queryKey: ['retention', 'rules'] as const,
    queryFn: ({ signal }) => request<RetentionTree>(RETENTION_API.rules, { signal }),
  });
}

export function useRetentionRules() {
  return useQuery(retentionRulesQueryOptions());
}
