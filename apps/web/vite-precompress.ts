// Build step: a brotli (.br) and a gzip (.gz) copy beside each text file of the build, made once
// at maximum compression, so the server sends them as they are (@fastify/static `preCompressed`)
// instead of compressing the same 1.3 MB chunk on every request. Files that do not shrink by at
// least a tenth get none (the server then sends the original).
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const TEXT = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest|xml)$/;
/** Files smaller than this go as they are (the server's threshold for answers is the same). */
const MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

/** Writes `<file>.br` and `<file>.gz` for each text file of `dir`; answers how many files got them. */
export async function precompressDir(dir: string): Promise<number> {
  let done = 0;
  for (const file of await filesUnder(dir)) {
    if (!TEXT.test(file) || (await stat(file)).size < MIN_BYTES) continue;
    const raw = await readFile(file);
    const [br, gzipped] = await Promise.all([
      brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
      gz(raw, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    if (gzipped.length > raw.length * 0.9) continue;
    await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
    done++;
  }
  return done;
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'iotc-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}
