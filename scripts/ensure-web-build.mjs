// Builds the web app before `npm start` when it is missing or older than its sources, so a
// fresh checkout starts with one command and a restart does not rebuild for nothing.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execSync } from 'node:child_process';

const out = 'apps/web/dist/index.html';
const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/shared/src', 'package-lock.json'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((n) => newest(join(path, n))));
}

const built = existsSync(out) ? statSync(out).mtimeMs : 0;
if (built < Math.max(...sources.map(newest))) {
  console.log('Building the web app (first start or sources changed)...');
  execSync('npm run build --workspace apps/web', { stdio: 'inherit' });
}
