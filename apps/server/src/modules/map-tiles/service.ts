// The base map's tile source (issue 26, item 1): the start-up default from MAP_TILE_* and the
// platform administrator's saved choice (platform_settings, key `map_tiles`), which overrides it.
// Every node keeps what applies in memory (`current`, read by the map configuration route and by
// the content security policy's img-src on every answer); a save drops it on every node, which
// read it again.
import { eq, sql } from 'drizzle-orm';
import type { MapConfig } from '@iotc/shared/live';
import { mapTilesSettingSchema, resolveMapTiles, type MapTilesSetting, type MapTilesView } from '@iotc/shared/map-tiles';
import type { Db } from '../../db/client.ts';
import { platformSettings } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller, ClientMeta } from '../../lib/caller.ts';
import { successRecorder } from '../audit/service.ts';
import type { AuditWriter } from '../audit/repo.ts';

export const MAP_TILES_KEY = 'map_tiles';
const ENV: MapTilesSetting = { source: 'env' };

/** What applies on this node: the start-up default until a saved choice is read. */
export interface MapTilesState {
  readonly envDefault: MapConfig;
  current(): MapConfig;
  saved(): { setting: MapTilesSetting; updatedAt: string | null };
  set(setting: MapTilesSetting, updatedAt: string | null): void;
}

export function mapTilesState(envDefault: MapConfig): MapTilesState {
  let setting = ENV;
  let updatedAt: string | null = null;
  let current = envDefault;
  return {
    envDefault,
    current: () => current,
    saved: () => ({ setting, updatedAt }),
    set(next, at) {
      setting = next;
      updatedAt = at;
      current = resolveMapTiles(next, envDefault);
    },
  };
}

function describe(setting: MapTilesSetting): string {
  return setting.source === 'custom' ? `custom ${setting.custom.tileUrl} (${setting.custom.tileCrs}, max zoom ${setting.custom.tileMaxZoom})` : setting.source;
}

export function mapTilesService(db: Db, state: MapTilesState, deps: { audit: AuditWriter; changed: () => void }) {
  const record = successRecorder(deps.audit);
  const onlyPlatformAdmin = (caller: Caller) => {
    if (!caller.isPlatformAdmin) throw new AppError(403, 'NO_PERMISSION');
  };
  return {
    /** Reads the saved choice into this node's state (none, or one no longer valid: the start-up default). */
    async load(): Promise<void> {
      const [row] = await db.select().from(platformSettings).where(eq(platformSettings.key, MAP_TILES_KEY));
      const parsed = row ? mapTilesSettingSchema.safeParse(row.value) : null;
      state.set(parsed?.success ? parsed.data : ENV, parsed?.success ? row!.updatedAt.toISOString() : null);
    },

    view(caller: Caller): MapTilesView {
      onlyPlatformAdmin(caller);
      const { setting, updatedAt } = state.saved();
      return { setting, envDefault: state.envDefault, effective: state.current(), updatedAt };
    },

    async save(caller: Caller, setting: MapTilesSetting, meta: ClientMeta): Promise<MapTilesView> {
      onlyPlatformAdmin(caller);
      const row = await db.transaction(async (tx) => {
        const [saved] = await tx
          .insert(platformSettings)
          .values({ key: MAP_TILES_KEY, value: setting, updatedBy: caller.userId })
          .onConflictDoUpdate({ target: platformSettings.key, set: { value: setting, updatedBy: caller.userId, updatedAt: sql`now()` } })
          .returning({ updatedAt: platformSettings.updatedAt });
        await record(tx, caller, caller.orgId, 'map_tiles_update', describe(setting), meta);
        return saved!;
      });
      state.set(setting, row.updatedAt.toISOString());
      deps.changed();
      return this.view(caller);
    },
  };
}
export type MapTilesService = ReturnType<typeof mapTilesService>;
