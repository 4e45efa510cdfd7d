// Vite build of the DataTable benchmark page into bench/web-table/dist. The page's imports
// (react, antd, @iotc/shared through the npm workspace links) resolve from the repository root
// as they do for apps/web. Vite and its React plugin are apps/web's dependencies, which npm
// keeps in apps/web/node_modules, so the plugin is loaded from there and Vite must be that one:
//   npm exec -w @iotc/web -- vite build --config ../../bench/web-table/vite.config.ts
//   (or apps/web/node_modules/.bin/vite build --config bench/web-table/vite.config.ts)
// No type import of either: apps/server's tsconfig checks bench/ and cannot resolve them.
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
// The language files' parts (`*.json?part=account|console`), as apps/web builds them.
import { localeParts } from '../../apps/web/vite-locale-parts.ts';

const fromWeb = createRequire(new URL('../../apps/web/package.json', import.meta.url));
const pluginUrl = pathToFileURL(fromWeb.resolve('@vitejs/plugin-react')).href;
const { default: react } = (await import(pluginUrl)) as { default: () => unknown };

export default {
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative asset paths, so any static server can serve dist/ from any path.
  base: './',
  plugins: [react(), localeParts()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // One page with antd in it; chunk size is not what this bench measures.
    chunkSizeWarningLimit: 4000,
  },
};
