// Roles a step may notify (every active holder when the step is sent): GET /api/iot/v2/roles
// ?orgId= (role:read), the roles of the rule's organisation tree, names in the user's language.
// Without role:read the call answers 403 and the picker keeps what the rule holds.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Page } from '@iotc/shared/envelope';
import type { Lang } from '@iotc/shared/i18n';
import { MAX_PAGE_SIZE } from '@iotc/shared/list';
import { PLATFORM_API, type RoleRow } from '@iotc/shared/platform';
import { request } from '../../../api/client.ts';
import type { RemoteOption } from '../../../components/remote-select.tsx';

export function fetchRoleChoices(orgId: string | undefined, lang: Lang, signal?: AbortSignal): Promise<RemoteOption[]> {
  // Silent: a refusal (no role:read) is shown beside the picker, not as a notification.
  return request<Page<RoleRow>>(PLATFORM_API.roles, { query: { page: 1, size: MAX_PAGE_SIZE, orgId }, signal, silent: true }).then((p) =>
    p.rows.map((r) => ({ value: r.id, label: `${lang === 'zh' ? r.nameZh : r.nameEn} (${r.code})` })),
  );
}

export function roleChoicesQueryOptions(orgId: string | undefined, lang: Lang) {
  return queryOptions({
    queryKey: ['list', PLATFORM_API.roles, 'alarmPush', orgId ?? null, lang] as const,
    queryFn: ({ signal }) => fetchRoleChoices(orgId, lang, signal),
    staleTime: 60_000,
  });
}

export function useRoleChoices(orgId: string | undefined, lang: Lang, enabled: boolean) {
  return useQuery({ ...roleChoicesQueryOptions(orgId, lang), enabled });
}
