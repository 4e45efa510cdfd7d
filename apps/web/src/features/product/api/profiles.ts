// Product profiles' calls: one page of the screen, all of them for a select, save (POST or PUT), delete.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PRODUCT_API, type ProfileBody, type ProfileRow } from '@iotc/shared/product';
import type { Page } from '@iotc/shared/envelope';
import { request } from '../../../api/client.ts';
import { listQueryOptions, type ListState } from '../../../lib/list-query.ts';

export const PROFILE_LISTS_KEY = ['list', PRODUCT_API.profiles] as const;
const profilePath = (id: string) => `${PRODUCT_API.profiles}/${encodeURIComponent(id)}`;

export function useProfiles(state: ListState) {
  return useQuery(listQueryOptions<ProfileRow>(PRODUCT_API.profiles, state));
}

/** The first 100 profiles by name, for the batch forms' select. */
export function useProfileOptions() {
  return useQuery({
    queryKey: [...PROFILE_LISTS_KEY, 'options'],
    queryFn: ({ signal }) => request<Page<ProfileRow>>(`${PRODUCT_API.profiles}?page=1&size=100&sort=name,asc`, { signal }),
  });
}

export function useSaveProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: ProfileBody }) =>
      id ? request<ProfileRow>(profilePath(id), { method: 'PUT', body, silent: true }) : request<ProfileRow>(PRODUCT_API.profiles, { method: 'POST', body, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: PROFILE_LISTS_KEY }),
  });
}

export function useDeleteProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request(profilePath(id), { method: 'DELETE', silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: PROFILE_LISTS_KEY }),
  });
}
