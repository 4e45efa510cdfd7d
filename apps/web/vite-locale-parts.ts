// Splits a language file at build time: `../locales/en.json?part=account` is the first load's
// messages (the keys under src/app/locale-parts.ts ACCOUNT_PREFIXES), `?part=console` all the
// others, each its own module, so the login page does not download the console's texts.
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { isAccountKey } from './src/app/locale-parts.ts';

const PART = /^(.+\.json)\?part=(account|console)$/;
const PREFIX = '\0locale-part:';

export function localeParts(): Plugin {
  return {
    name: 'iotc-locale-parts',
    enforce: 'pre',
    async resolveId(source, importer) {
      const match = PART.exec(source);
      if (!match) return null;
      const file = await this.resolve(match[1]!, importer, { skipSelf: true });
      // Not ending in .json: Vite's JSON plugin would take the module for JSON again.
      return file ? `${PREFIX}${match[2]}:${file.id}.js` : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const rest = id.slice(PREFIX.length);
      const part = rest.slice(0, rest.indexOf(':'));
      const file = rest.slice(part.length + 1, -'.js'.length);
      this.addWatchFile(file);
      const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      const picked = Object.fromEntries(Object.entries(messages).filter(([key]) => isAccountKey(key) === (part === 'account')));
      return `export default ${JSON.stringify(picked)};`;
    },
  };
}
