// The custom-column preference in cookies (spec sections 3 and 9): JSON, URI-encoded, cut into
// chunks of COLUMN_COOKIE_CHUNK characters, at most COLUMN_COOKIE_MAX_CHUNKS, no expiry (they
// last as long as the browser session). Pure over a small cookie-jar interface so tests can use
// document.cookie or a fake.
import { COLUMN_COOKIE_CHUNK, COLUMN_COOKIE_MAX_CHUNKS } from '@iotc/shared/constants';
import type { ColumnPreference, Row, TableColumn } from './types.ts';

export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string): void;
  remove(name: string): void;
}

/** Thrown when a preference would need more than COLUMN_COOKIE_MAX_CHUNKS cookies; nothing was written. */
export class ColumnSettingsTooLargeError extends Error {
  readonly chunks: number;
  constructor(chunks: number) {
    super(`column settings need ${chunks} cookies, at most ${COLUMN_COOKIE_MAX_CHUNKS} are allowed`);
    this.name = 'ColumnSettingsTooLargeError';
    this.chunks = chunks;
  }
}

/** Cookie name of chunk `n` (0-based); characters a cookie name cannot hold become '_'. */
export function chunkName(tableId: string, n: number): string {
  return `iotc-cols-${tableId.replace(/[^\w-]/g, '_')}-${n}`;
}

export function encodePreference(pref: ColumnPreference): string {
  return encodeURIComponent(JSON.stringify(pref));
}

/** Cuts the encoded text into chunks; the chunk size counts encoded characters, which is what the cookie holds. */
export function splitChunks(encoded: string, size = COLUMN_COOKIE_CHUNK): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < encoded.length; i += size) chunks.push(encoded.slice(i, i + size));
  return chunks;
}

/** Writes the preference; throws ColumnSettingsTooLargeError, before writing anything, when it does not fit. */
export function savePreference(jar: CookieJar, tableId: string, pref: ColumnPreference): { chunks: number } {
  const chunks = splitChunks(encodePreference(pref));
  if (chunks.length > COLUMN_COOKIE_MAX_CHUNKS) throw new ColumnSettingsTooLargeError(chunks.length);
  chunks.forEach((chunk, n) => jar.set(chunkName(tableId, n), chunk));
  // A shorter preference leaves higher-numbered chunks of the old one behind; they would be read back.
  for (let n = chunks.length; n < COLUMN_COOKIE_MAX_CHUNKS; n += 1) {
    const name = chunkName(tableId, n);
    if (jar.get(name) !== undefined) jar.remove(name);
  }
  return { chunks: chunks.length };
}

function isPreference(value: unknown): value is ColumnPreference {
  return (
    Array.isArray(value) &&
    value.every((v) => !!v && typeof v === 'object' && typeof v.key === 'string' && typeof v.hidden === 'boolean')
  );
}

/** Reads the preference back; undefined when none is saved or the cookies are damaged. */
export function loadPreference(jar: CookieJar, tableId: string): ColumnPreference | undefined {
  let encoded = '';
  for (let n = 0; n < COLUMN_COOKIE_MAX_CHUNKS; n += 1) {
    const chunk = jar.get(chunkName(tableId, n));
    if (chunk === undefined) break;
    encoded += chunk;
  }
  if (!encoded) return undefined;
  try {
    const value: unknown = JSON.parse(decodeURIComponent(encoded));
    return isPreference(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function clearPreference(jar: CookieJar, tableId: string): void {
  for (let n = 0; n < COLUMN_COOKIE_MAX_CHUNKS; n += 1) {
    const name = chunkName(tableId, n);
    if (jar.get(name) !== undefined) jar.remove(name);
  }
}

/** The preference of the declared columns as they stand (each column's own hidden flag). */
export function preferenceOf<T extends Row>(columns: TableColumn<T>[]): ColumnPreference {
  return columns.map((c) => ({ key: c.value, hidden: !!c.hidden }));
}

/** The declared columns with the saved hidden flags applied; columns the preference does not know keep their own. */
export function applyPreference<T extends Row>(columns: TableColumn<T>[], pref: ColumnPreference | undefined): TableColumn<T>[] {
  if (!pref) return columns;
  const hidden = new Map(pref.map((p) => [p.key, p.hidden]));
  return columns.map((c) => (hidden.has(c.value) ? { ...c, hidden: hidden.get(c.value) } : c));
}

/**
 * The browser's cookies. Values are already URI-encoded, so they are written raw (js-cookie
 * would encode the '%' again and overflow the chunk size). No expires attribute: session cookies.
 */
export function documentCookieJar(doc: Document = document): CookieJar {
  return {
    get(name) {
      const prefix = `${name}=`;
      const found = doc.cookie.split('; ').find((c) => c.startsWith(prefix));
      return found === undefined ? undefined : found.slice(prefix.length);
    },
    set(name, value) {
      doc.cookie = `${name}=${value}; path=/; SameSite=Lax`;
    },
    remove(name) {
      doc.cookie = `${name}=; path=/; SameSite=Lax; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
    },
  };
}
