// The text of a PDF as poppler's pdftotext reads it, for tests that check what a document says.
// Where pdftotext is not installed, HAS_PDFTOTEXT is false and such tests are skipped.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const PDFTOTEXT = '/usr/bin/pdftotext';
export const HAS_PDFTOTEXT = existsSync(PDFTOTEXT);

/** The document's text, its runs of white space (line ends, layout gaps) as single spaces. */
export async function pdfText(pdf: Buffer): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-text-'));
  try {
    writeFileSync(join(dir, 'd.pdf'), pdf);
    return (await promisify(execFile)(PDFTOTEXT, [join(dir, 'd.pdf'), '-'])).stdout.replace(/\s+/g, ' ');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of each page (pdftotext ends every page with a form feed), white space as in pdfText. */
export async function pdfPages(pdf: Buffer): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-text-'));
  try {
    writeFileSync(join(dir, 'd.pdf'), pdf);
    const text = (await promisify(execFile)(PDFTOTEXT, [join(dir, 'd.pdf'), '-'])).stdout;
    return text.split('\f').slice(0, -1).map((page) => page.replace(/\s+/g, ' ').trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
