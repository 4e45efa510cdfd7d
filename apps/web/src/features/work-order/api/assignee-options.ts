// GET /api/iot/v2/assignees (no keyword): the people the assignee filter offers, searched in the
// list (the form's picker searches the server as the user types: components/assignee-select).
import { useQuery } from '@tanstack/react-query';
import { fetchAssignees } from '../../../api/assignees.ts';

export function useAssigneeOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['assignees', 'filter'] as const,
    queryFn: ({ signal }) => fetchAssignees('', signal),
    enabled,
    staleTime: 60_000,
    select: (rows) => rows.map((u) => ({ value: u.id, label: `${u.name} (${u.account})` })),
  });
}
