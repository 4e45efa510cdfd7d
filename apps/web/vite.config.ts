// Vite build of the console: output in apps/web/dist (served by the API server); in
// development, API calls go through to the server on port 3000.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './vite-precompress.ts';
import { localeParts } from './vite-locale-parts.ts';
import { chinaOutline } from './vite-china-outline.ts';

// API_TARGET points the dev server at a server on another address.
const api = process.env.API_TARGET ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), localeParts(), chinaOutline(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The map (Leaflet with the world outline) and ECharts are the big chunks; each loads only
    // with the screens that draw one.
    chunkSizeWarningLimit: 1000,
    rolldownOptions: {
      output: {
        // Named library chunks change only when the libraries do, so browsers keep them cached
        // across releases; screens stay in chunks of their own. antd and the other libraries
        // have no group: rolldown splits them by the screens that import each part, so the login
        // page fetches the form controls it shows and not the whole of antd (issue 23).
        codeSplitting: {
          // Common chunks under 8 KB of source are copied into the chunks that read them (one
          // execution and one module state through rolldown's registry) instead of being files of
          // their own: the alarm query fetched 161 files, 101 of them under 2 KB gzip, and on
          // HTTP/1.1 (six connections) each costs a round trip; with this 80. Chunks with styles
          // stay files (Vite's CSS plugin emits a style module's CSS from each chunk listing it).
          experimentalInlineCommonChunks: { maxSize: 8 * 1024, exclude: /\.(css|scss|less)(\?|$)/ },
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]/ },
            // The live map's libraries (and the bundled world outline) load with the screens that
            // show a map, never on the login page.
            { name: 'map', test: /node_modules[\\/](leaflet|supercluster|kdbush|gcoord|topojson-client|world-atlas)[\\/]/ },
            // ECharts and its renderer zrender, as far as two or more screens share them, load with
            // the screens that draw curves; what only the cockpit draws (the China map, gauges,
            // geo) stays in the cockpit's chunks.
            // The pieces only some charts register (components/chart/zoom.ts, marks.ts, pie.ts)
            // stay out of it, so the alarm statistics and the cockpit do not fetch the curves' zoom.
            { name: 'echarts', test: /node_modules[\\/](echarts|zrender)[\\/](?!lib[\\/](component[\\/](dataZoom|marker)|chart[\\/]pie)[\\/])/, minShareCount: 2 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/iot-cloud-auth': { target: api, changeOrigin: true },
      '/api': { target: api, changeOrigin: true, ws: true },
    },
  },
});
