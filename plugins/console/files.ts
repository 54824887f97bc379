import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Media types of what a Vite build emits; anything else is served as bytes. */
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.bpmn': 'application/xml',
  '.xml': 'application/xml',
};

/** Formats worth compressing (images and fonts are compressed already). */
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

/** Smaller bodies gain nothing from compression but a header. */
const MIN_COMPRESS_BYTES = 1024;

export type Encoding = 'br' | 'gzip' | 'identity';

/** One file as served: its bytes in each encoding made, its type and a validator. */
export interface ServedFile {
  type: string;
  etag: string;
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
}

interface Cached {
  mtimeMs: number;
  size: number;
  file: Promise<ServedFile>;
}

/**
 * The path relative to the build folder, or undefined when it is not a plain file name:
 * `..` and `.` segments, hidden names (`.env`), empty segments, backslashes and NULs are refused
 * outright, so nothing outside the folder (nor a dotfile inside it) can be named.
 */
export function safeRelative(path: string): string | undefined {
  // One trailing slash is an app route's (`streams/`), not an empty name.
  if (path.endsWith('/')) path = path.slice(0, -1);
  if (path.length === 0 || path.length > 1024) return undefined;
  if (path.includes('\\') || path.includes('\0')) return undefined;
  const segments = path.split('/');
  for (const segment of segments) if (segment === '' || segment.startsWith('.')) return undefined;
  return segments.join('/');
}

/** The encoding to send: brotli, else gzip, when the client accepts it (a q of 0 refuses). */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (!q || Number(q.slice(2)) > 0)) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return 'identity';
}

/**
 * The built single-page app on disk. Each file is read and compressed once and kept in memory,
 * (a build is a few megabytes at most); a file whose size or time changed (a rebuild while the
 * server runs) is read again. Precompressed siblings (`x.js.br`, `x.js.gz`, written by the
 * build: app/precompress.ts) are used when the build made them, so the first request for a
 * large script is not held up by brotli's slowest setting; a file without them is compressed here.
 */
export class BuiltFiles {
  private readonly cache = new Map<string, Cached>();

  constructor(readonly root: string) {}

  /** The file at a path checked by safeRelative, or undefined when there is none. */
  async get(relative: string): Promise<ServedFile | undefined> {
    const full = join(this.root, ...relative.split('/'));
    if (!full.startsWith(this.root + sep)) return undefined;
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(full);
    } catch {
      return undefined;
    }
    if (!info.isFile()) return undefined;
    const cached = this.cache.get(relative);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.file;
    const file = load(full);
    this.cache.set(relative, { mtimeMs: info.mtimeMs, size: info.size, file });
    file.catch(() => this.cache.delete(relative));
    return file;
  }
}

/**
 * A precompressed copy the build wrote, unless it is older than the file itself: a copy left
 * from an earlier build of the same name would otherwise be sent for the new content.
 */
async function sibling(path: string, fileMtimeMs: number): Promise<Buffer | undefined> {
  try {
    if ((await stat(path)).mtimeMs < fileMtimeMs) return undefined;
    return await readFile(path);
  } catch {
    return undefined;
  }
}

async function load(full: string): Promise<ServedFile> {
  const [identity, info] = await Promise.all([readFile(full), stat(full)]);
  const extension = extname(full).toLowerCase();
  const bodies: ServedFile['bodies'] = { identity };
  if (COMPRESSIBLE.has(extension) && identity.length >= MIN_COMPRESS_BYTES) {
    const [br, gz] = await Promise.all([sibling(`${full}.br`, info.mtimeMs), sibling(`${full}.gz`, info.mtimeMs)]);
    bodies.br =
      br ??
      (await brotli(identity, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length },
      }));
    bodies.gzip = gz ?? (await gzipped(identity, { level: 9 }));
  }
  return {
    type: TYPES[extension] ?? 'application/octet-stream',
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
    bodies,
  };
}
