import { ApiError, type ErrorDetail } from '../../kernel/errors.js';

/** The size rules of a workspace's files (plugin settings). */
export interface FileLimits {
  max_file_bytes: number;
  max_files: number;
  max_workspace_bytes: number;
}

export type FileMap = Record<string, string>;

export const MAX_PATH_LENGTH = 256;

/** A control character (NUL included) or a backslash: never in a path. */
const FORBIDDEN = /[\u0000-\u001f\u007f\\]/;

/** Why `path` is not a workspace path, or undefined when it is one. */
export function pathProblem(path: string): string | undefined {
  if (path.length === 0) return 'is empty';
  if (path.length > MAX_PATH_LENGTH) return `is longer than ${MAX_PATH_LENGTH} characters`;
  if (FORBIDDEN.test(path)) return 'holds a control character or a backslash';
  if (path.startsWith('/')) return 'is absolute: paths are relative to the workspace';
  for (const segment of path.split('/')) {
    if (segment === '') return 'has an empty segment (// or a trailing /)';
    if (segment === '.' || segment === '..') return `has a "${segment}" segment`;
  }
  return undefined;
}

/** JSON pointer of a file path under `/files` (RFC 6901 escaping). */
export function filePointer(path: string, under = '/files'): string {
  return `${under}/${path.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function refuse(message: string, details: ErrorDetail[]): ApiError {
  return new ApiError('validation_error', message, { details: details.slice(0, 20) });
}

export function bytesOf(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function totalBytes(files: FileMap): number {
  let total = 0;
  for (const content of Object.values(files)) total += bytesOf(content);
  return total;
}

/** The files sorted by path: jsonb keeps keys in its own order, the API shows them sorted. */
export function sortedFiles(files: FileMap): FileMap {
  const out: FileMap = {};
  for (const path of Object.keys(files).sort()) out[path] = files[path] as string;
  return out;
}

/** Checks the paths and per-file size of files being written; throws 400 naming each bad one. */
export function checkWrittenFiles(files: FileMap, limits: FileLimits): void {
  const details: ErrorDetail[] = [];
  for (const [path, content] of Object.entries(files)) {
    const problem = pathProblem(path);
    if (problem) details.push({ in: 'body', pointer: filePointer(path), message: `path ${problem}` });
    else if (bytesOf(content) > limits.max_file_bytes)
      details.push({
        in: 'body',
        pointer: filePointer(path),
        message: `is larger than ${limits.max_file_bytes} bytes`,
      });
  }
  if (details.length > 0) throw refuse('Some files cannot be written: see details.', details);
}

/** The files of the next revision: `current` with `written` put and `deleted` removed; checked against the workspace limits. */
export function nextFiles(
  current: FileMap,
  written: FileMap,
  deleted: readonly string[],
  limits: FileLimits,
): { files: FileMap; changed: string[]; deleted: string[] } {
  checkWrittenFiles(written, limits);
  const details: ErrorDetail[] = [];
  deleted.forEach((path, i) => {
    if (path in written) details.push({ in: 'body', pointer: `/delete/${i}`, message: 'is also written in files' });
    else if (!Object.hasOwn(current, path))
      details.push({ in: 'body', pointer: `/delete/${i}`, message: 'is not a file of the workspace' });
  });
  if (details.length > 0) throw refuse('Some paths cannot be deleted: see details.', details);
  const files: FileMap = { ...current };
  for (const path of deleted) delete files[path];
  const changed: string[] = [];
  for (const [path, content] of Object.entries(written)) {
    if (files[path] !== content) changed.push(path);
    files[path] = content;
  }
  const count = Object.keys(files).length;
  if (count > limits.max_files)
    throw refuse(`A workspace holds at most ${limits.max_files} files; this would make ${count}.`, [
      { in: 'body', pointer: '/files', message: `would make ${count} files, more than ${limits.max_files}` },
    ]);
  const bytes = totalBytes(files);
  if (bytes > limits.max_workspace_bytes)
    throw refuse(`A workspace holds at most ${limits.max_workspace_bytes} bytes of files; this would make ${bytes}.`, [
      { in: 'body', pointer: '/files', message: `would make ${bytes} bytes, more than ${limits.max_workspace_bytes}` },
    ]);
  return { files, changed: changed.sort(), deleted: [...deleted].sort() };
}
