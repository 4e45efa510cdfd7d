// ECharts ignores an option whose piece is not registered: a curve would lose its zoom or its
// limit lines without an error. Every module that writes such an option registers the piece.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../..');

const PIECES = [
  { uses: /\bdataZoom\s*:/, registers: 'components/chart/zoom.ts' },
  { uses: /\bmark(Line|Area)\s*:/, registers: 'components/chart/marks.ts' },
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('ECharts pieces', () => {
  it('are registered by every module whose chart options use them', () => {
    const missing: string[] = [];
    let users = 0;
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      if (!text.includes('EChartOption')) continue;
      for (const piece of PIECES) {
        if (!piece.uses.test(text)) continue;
        users += 1;
        const name = piece.registers.split('/').pop()!;
        if (!new RegExp(`import '[./]*(components/)?chart/${name.replace('.', '\\.')}'|import '\\./${name.replace('.', '\\.')}'`).test(text)) missing.push(`${relative(SRC, file)} uses ${piece.uses} without ${piece.registers}`);
      }
    }
    expect(users).toBeGreaterThanOrEqual(6);
    expect(missing).toEqual([]);
  });
});
