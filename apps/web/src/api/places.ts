// GET /api/iot/v2/places: the place library's search behind the "pick from library" pickers of
// the alarm policy and transport forms (components/place-picker.tsx).
import { PLACE_API, type PlaceRow } from '@iotc/shared/place';
import { fetchList } from '../lib/list-query.ts';

/** The first 20 places whose name or note contains `search`, by name. */
export async function searchLibraryPlaces(search: string, signal: AbortSignal): Promise<PlaceRow[]> {
  const keyword = search.trim();
  const page = await fetchList<PlaceRow>(PLACE_API.places, { page: 1, size: 20, sort: 'name,asc', filters: keyword ? { keyword } : {} }, signal);
  return page.rows;
}
