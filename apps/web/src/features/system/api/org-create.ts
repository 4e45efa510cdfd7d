// POST /api/iot/v2/orgs: a child organisation (409 ORG_CODE_TAKEN when the code is in use).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PLATFORM_API, type OrgCreateBody, type OrgNode } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';
import { orgTreeQueryOptions } from '../../../api/org-tree.ts';

export function createOrg(body: OrgCreateBody): Promise<Omit<OrgNode, 'children'>> {
  // The form shows the refusal itself.
  return request(PLATFORM_API.orgs, { method: 'POST', body, silent: true });
}

export function useCreateOrg() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createOrg,
    onSuccess: () => client.invalidateQueries({ queryKey: orgTreeQueryOptions().queryKey }),
  });
}
