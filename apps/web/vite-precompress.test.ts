// The build's compression step: a .br and a .gz that unpack to the file, for text files big
// enough to gain; small files and files that do not shrink (already compressed) get none.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { precompressDir } from './vite-precompress.ts';

const dir = mkdtempSync(join(tmpdir(), 'iotc-precompress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('precompressDir', () => {
  it('writes brotli and gzip copies of the text files worth it, in sub-folders too', async () => {
    mkdirSync(join(dir, 'assets'));
    const js = Array.from({ length: 3000 }, (_, i) => `export const v${i} = '${i}';`).join('\n');
    writeFileSync(join(dir, 'assets', 'app-1.js'), js);
    writeFileSync(join(dir, 'index.html'), `<!doctype html>${'<div>console</div>'.repeat(200)}`);
    writeFileSync(join(dir, 'tiny.js'), 'console.log(1)');
    // Random bytes named .json: they do not shrink, so they go as they are.
    writeFileSync(join(dir, 'noise.json'), randomBytes(8192));
    writeFileSync(join(dir, 'font.woff2'), Buffer.alloc(8192));

    expect(await precompressDir(dir)).toBe(2);
    const file = join(dir, 'assets', 'app-1.js');
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(js);
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(js);
    expect(readFileSync(`${file}.br`).length).toBeLessThan(js.length / 5);
    expect(existsSync(join(dir, 'index.html.br'))).toBe(true);
    for (const none of ['tiny.js', 'noise.json', 'font.woff2']) {
      expect(existsSync(join(dir, `${none}.br`)), none).toBe(false);
      expect(existsSync(join(dir, `${none}.gz`)), none).toBe(false);
    }
  });
});
