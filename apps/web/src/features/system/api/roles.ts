// GET /api/iot/v2/roles: the roles of the caller's organisations (an `orgId` filter narrows to
// one organisation and its descendants), names in the request's language.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { Lang } from '@iotc/shared/i18n';
import { MAX_PAGE_SIZE } from '@iotc/shared/list';
import { PLATFORM_API, type RoleRow } from '@iotc/shared/platform';
import { fetchList, listQuery, type ListState } from '../../../lib/list-query.ts';

/** Every roles list, whatever its filters: what role mutations invalidate. */
export const ROLES_LIST_KEY = ['list', PLATFORM_API.roles] as const;

export function rolesQueryOptions(state: ListState, lang: Lang) {
  return queryOptions({
    // Role names come in the request's language: another language is another answer.
    queryKey: [...ROLES_LIST_KEY, listQuery(state), lang],
    queryFn: ({ signal }) => fetchList<RoleRow>(PLATFORM_API.roles, state, signal),
    placeholderData: keepPreviousData,
  });
}

export function useRoles(state: ListState, lang: Lang) {
  return useQuery({
    ...rolesQueryOptions(state, lang),
    select: (page) => ({
      ...page,
      // `createdAt` as shown: in the user's time zone.
      rows: page.rows.map((r): RoleRow => ({ ...r, createdAt: dayjs(r.createdAt).format(DATETIME_FORMAT) })),
    }),
  });
}

/**
 * Every role the caller can hand out, for the user forms: one large page, scoped by the server
 * to the caller's organisations; the form narrows it to the user's organisation and ancestors.
 */
const ALL_ROLES: ListState = { page: 1, size: MAX_PAGE_SIZE, sort: 'code,asc', filters: {} };

export function useAssignableRoles(lang: Lang, enabled: boolean) {
  return useQuery({ ...rolesQueryOptions(ALL_ROLES, lang), enabled, select: (page) => page.rows });
}
