// GET /api/iot/v2/assignees: the active users of the caller's organisation tree that an alarm or
// a work order may be handed to (alarm:handle; no user:read needed). Shared by the alarm screens
// and the work orders screen through components/assignee-select.tsx.
import { WORK_ORDER_API, type AssigneeRow } from '@iotc/shared/work-order';
import { request } from './client.ts';

export function fetchAssignees(keyword: string, signal?: AbortSignal, orgId?: string): Promise<AssigneeRow[]> {
  const query: Record<string, string> = {};
  if (keyword.trim()) query.keyword = keyword.trim();
  if (orgId) query.orgId = orgId;
  return request<AssigneeRow[]>(WORK_ORDER_API.assignees, { signal, query });
}
