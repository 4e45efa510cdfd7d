// GET /api/iot/v2/users: the users of the caller's organisations (an `orgId` filter narrows to
// one organisation and its descendants); rows made ready for the table.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { Lang } from '@iotc/shared/i18n';
import { PLATFORM_API, type UserRow } from '@iotc/shared/platform';
import { fetchList, listQuery, type ListState } from '../../../lib/list-query.ts';

/** Every users list, whatever its filters: what user mutations invalidate. */
export const USERS_LIST_KEY = ['list', PLATFORM_API.users] as const;

/** A row as shown: `createdAt` formatted in the user's time zone, role names as a list of tags. */
export interface UserView extends UserRow {
  roleNames: string[];
}

export function usersQueryOptions(state: ListState, lang: Lang) {
  return queryOptions({
    // Role names come in the request's language: another language is another answer.
    queryKey: [...USERS_LIST_KEY, listQuery(state), lang],
    queryFn: ({ signal }) => fetchList<UserRow>(PLATFORM_API.users, state, signal),
    placeholderData: keepPreviousData,
  });
}

export function useUsers(state: ListState, lang: Lang) {
  return useQuery({
    ...usersQueryOptions(state, lang),
    select: (page) => ({
      ...page,
      rows: page.rows.map(
        (r): UserView => ({ ...r, createdAt: dayjs(r.createdAt).format(DATETIME_FORMAT), roleNames: r.roles.map((x) => x.name) }),
      ),
    }),
  });
}
