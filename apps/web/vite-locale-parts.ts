// Splits the language files at build time into the parts of src/app/locale-parts.ts, each its own
// module (and chunk), so a page downloads only the texts of what it shows:
// - `../locales/en.json?part=account`: the first load's messages (language-en.ts);
// - `../locales/en.json?part=shell`: the console frame's and the shared components';
// - `../locales/en.json?part=p:alarm`: the keys of one prefix (minus the shell's);
// - `virtual:iotc-locale-parts`: for each language, each part but the account one by name, as a
//   function that imports it (i18n.ts fetches this table itself only once the console needs it).
// The web unit tests use the same plugin (vitest.config.ts), so these imports work there too.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { partOf } from './src/app/locale-parts.ts';

const PART = /^(.+\.json)\?part=(account|shell|p:[a-zA-Z0-9]+)$/;
const PREFIX = '\0locale-part:';
const TABLE = 'virtual:iotc-locale-parts';
const LOCALES = fileURLToPath(new URL('./src/locales/', import.meta.url));

function messagesOf(file: string): Record<string, string> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
}

/** `part=account|shell|p:<prefix>` to the part's name (a prefix is its own part's name). */
function partName(query: string): string {
  return query.startsWith('p:') ? query.slice(2) : query;
}

/** The table of `virtual:iotc-locale-parts`: language to part name to its import. */
function tableModule(): string {
  const languages = readdirSync(LOCALES).filter((name) => /^[a-z]{2}\.json$/.test(name));
  const entries = languages.map((name) => {
    const file = `${LOCALES}${name}`;
    const parts = [...new Set(Object.keys(messagesOf(file)).map(partOf))].filter((part) => part !== 'account').sort();
    const loaders = parts.map((part) => `${JSON.stringify(part)}: () => import(${JSON.stringify(`${file}?part=${part === 'shell' ? part : `p:${part}`}`)})`);
    return `${JSON.stringify(name.slice(0, 2))}: {\n${loaders.join(',\n')}\n}`;
  });
  return `export default {\n${entries.join(',\n')}\n};`;
}

export function localeParts(): Plugin {
  return {
    name: 'iotc-locale-parts',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source === TABLE) return `${PREFIX}table`;
      const match = PART.exec(source);
      if (!match) return null;
      const file = await this.resolve(match[1]!, importer, { skipSelf: true });
      // `<file>.<part>.js`: the chunk is named after the language and the part (en.json.alarm-*.js),
      // and not ending in .json, Vite's JSON plugin does not take the module for JSON again.
      return file ? `${PREFIX}${file.id}.${partName(match[2]!)}.js` : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      if (id === `${PREFIX}table`) {
        for (const name of readdirSync(LOCALES)) if (name.endsWith('.json')) this.addWatchFile(`${LOCALES}${name}`);
        return tableModule();
      }
      const rest = id.slice(PREFIX.length, -'.js'.length);
      const part = rest.slice(rest.lastIndexOf('.') + 1);
      const file = rest.slice(0, rest.lastIndexOf('.'));
      this.addWatchFile(file);
      const picked = Object.fromEntries(Object.entries(messagesOf(file)).filter(([key]) => partOf(key) === part));
      return `export default ${JSON.stringify(picked)};`;
    },
  };
}
