// Where the GSP record's goods are kept (issue 26 item 3): the warehouse of the record (the asset
// itself, or the warehouse its cold room or refrigerator is in) with its address for the header
// of the PDF, the Excel file and the screen. The address is the one stored with the warehouse
// (province, city, street); without one, the files ask the geocoder (GEOCODER_URL) for the address
// of the warehouse's library place, or of its own coordinates; a geocoder that is missing, slow or
// failing leaves the coordinates alone and the record is made all the same.
import { eq } from 'drizzle-orm';
import type { GspReport } from '@iotc/shared/gsp-report';
import type { Lang } from '@iotc/shared/i18n';
import type { Db } from '../../db/client.ts';
import { assets, places } from '../../db/schema.ts';
import type { Geocoder } from '../geocode/service.ts';

type Warehouse = NonNullable<GspReport['warehouse']>;

/** Rooms nest at most refrigerator → cold room → warehouse. */
const MAX_LEVELS = 3;

const text = (attrs: unknown, key: string): string | null => {
  const v = (attrs as Record<string, unknown> | null)?.[key];
  return typeof v === 'string' && v.trim() ? v.trim() : null;
};
const coord = (attrs: unknown, key: string): number | null => {
  const v = (attrs as Record<string, unknown> | null)?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};

/** The warehouse the asset is or sits in, with its stored address and position; null for a vehicle, container or a room in no warehouse. */
export async function gspWarehouse(db: Db, assetId: string): Promise<Warehouse | null> {
  let id: string | null = assetId;
  for (let level = 0; id && level < MAX_LEVELS; level += 1) {
    const [row] = await db
      .select({ a: assets, placeLat: places.lat, placeLon: places.lon })
      .from(assets)
      .leftJoin(places, eq(places.id, assets.placeId))
      .where(eq(assets.id, id));
    if (!row) return null;
    const a = row.a;
    if (a.kind === 'warehouse') {
      const street = text(a.attrs, 'address');
      return {
        id: a.id,
        code: a.code,
        name: a.name,
        // The street alone is not an address an inspector can find; with it, the province and city.
        address: street ? [text(a.attrs, 'province'), text(a.attrs, 'city'), street].filter(Boolean).join(' ') : null,
        lat: row.placeLat ?? coord(a.attrs, 'lat'),
        lon: row.placeLon ?? coord(a.attrs, 'lon'),
      };
    }
    if (a.kind !== 'cold_room' && a.kind !== 'refrigerator') return null;
    id = a.parentId;
  }
  return null;
}

/** The record with the geocoder's address of its warehouse where none is stored (unchanged without a geocoder or an answer). */
export async function withWarehouseAddress(r: GspReport, lang: Lang, geocoder?: Pick<Geocoder, 'reverseMany'>): Promise<GspReport> {
  const w = r.warehouse;
  if (!geocoder || !w || w.address || w.lat === null || w.lon === null) return r;
  const [address] = await geocoder.reverseMany([{ lat: w.lat, lon: w.lon }], lang).catch(() => [null]);
  return address ? { ...r, warehouse: { ...w, address } } : r;
}
