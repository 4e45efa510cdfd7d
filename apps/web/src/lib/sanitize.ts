// HTML from outside the code (a table's html column, the map's tile attribution from the
// server's configuration) goes through DOMPurify before it is set as markup. DOMPurify (11 KB
// gzip) is fetched by the first such HTML, once for all of them, not with every screen.
import type { Config, DOMPurify } from 'dompurify';

export type Sanitize = (html: string) => string;

let purify: Promise<DOMPurify> | null = null;

/** A sanitiser with the given DOMPurify settings, once DOMPurify is in. */
export function loadSanitizer(config: Config): Promise<Sanitize> {
  purify ??= import('dompurify').then((m) => m.default);
  const settings = { ...config, RETURN_TRUSTED_TYPE: false as const };
  return purify.then((dompurify) => (html: string) => dompurify.sanitize(html, settings));
}
