// The cockpit's China outline (vite-china-outline.ts): ECharts' compressed GeoJSON of the provinces.
declare module 'virtual:china-outline' {
  const outline: {
    type: string;
    UTF8Encoding?: boolean;
    features: { properties?: { name?: string } | null; geometry: { type: string; coordinates: unknown; encodeOffsets?: unknown } }[];
  };
  export default outline;
}
