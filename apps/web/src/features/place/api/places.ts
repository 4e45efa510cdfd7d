// The place library's calls: one page of the screen, save (POST or PUT), delete (refused while in
// use, naming where), GeoJSON export (a file) and import.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { PLACE_API, type PlaceBody, type PlaceImportResult, type PlaceRow } from '@iotc/shared/place';
import { ApiError, request } from '../../../api/client.ts';
import { downloadFile, listQueryOptions, type ListState } from '../../../lib/list-query.ts';

export const PLACE_LISTS_KEY = ['list', PLACE_API.places] as const;
const placePath = (id: string) => `${PLACE_API.places}/${encodeURIComponent(id)}`;

function invalidatePlaces(client: QueryClient): Promise<unknown> {
  return client.invalidateQueries({ queryKey: PLACE_LISTS_KEY });
}

export function usePlaces(state: ListState) {
  return useQuery(listQueryOptions<PlaceRow>(PLACE_API.places, state));
}

export function useSavePlace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: PlaceBody }) =>
      id ? request<PlaceRow>(placePath(id), { method: 'PUT', body, silent: true }) : request<PlaceRow>(PLACE_API.places, { method: 'POST', body, silent: true }),
    onSuccess: () => invalidatePlaces(client),
  });
}

/**
 * A refusal of a place in use keeps the server's whole sentence (the catalogue text and where the
 * place is used, in the request language): apiErrorText shows a known code's catalogue text only.
 */
async function deletePlace(id: string): Promise<unknown> {
  try {
    return await request(placePath(id), { method: 'DELETE', silent: true });
  } catch (error) {
    if (error instanceof ApiError && error.errorcode === 'PLACE_IN_USE' && error.errormsg) throw new ApiError(error.status, null, error.errormsg);
    throw error;
  }
}

export function useDeletePlace() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deletePlace, onSuccess: () => invalidatePlaces(client) });
}

export function useImportPlaces() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (collection: unknown) => request<PlaceImportResult>(PLACE_API.import, { method: 'POST', body: { collection }, silent: true }),
    onSuccess: () => invalidatePlaces(client),
  });
}

export function exportPlaces(): Promise<string> {
  return downloadFile(PLACE_API.export, {}, 'places.geojson');
}
