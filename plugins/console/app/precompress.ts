import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Text formats the console plugin compresses (plugins/console/files.ts keeps the same list and
 * threshold: below 1 KiB a compressed body saves less than its header costs).
 */
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.map',
  '.webmanifest',
  '.txt',
  '.svg',
  '.wasm',
  '.xml',
  '.bpmn',
]);
const MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * Writes `x.br` (brotli, best quality) and `x.gz` (gzip, level 9) beside each compressible file
 * of the build. The server sends them as they are: the first visitor after a start no longer
 * waits while the service compresses a few hundred kilobytes of script at the slowest setting.
 */
export async function precompress(dir: string): Promise<number> {
  const files = (await filesUnder(dir)).filter((f) => COMPRESSIBLE.has(extname(f).toLowerCase()));
  let written = 0;
  await Promise.all(
    files.map(async (file) => {
      const body = await readFile(file);
      if (body.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
        }),
        gzipped(body, { level: 9 }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
      written += 1;
    }),
  );
  return written;
}

/** The Vite plugin: precompresses the output folder once the bundle is written. */
export function precompressPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'runtime-console-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompress(outDir);
    },
  };
}
