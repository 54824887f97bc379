import { readFileSync } from 'node:fs';
import { fromRoot } from '../kernel/paths.js';

/**
 * The V8/Node flags `npm start` runs the kernel with, read from package.json's start script, so a
 * bench measures the kernel as it ships (one place says which flags that is). Only `--` options
 * between `node` and the script count.
 */
export function productNodeFlags(): string[] {
  const scripts =
    (JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  const words = (scripts.start ?? '').split(/\s+/);
  const node = words.indexOf('node');
  if (node === -1) return [];
  const flags: string[] = [];
  for (const word of words.slice(node + 1)) {
    if (!word.startsWith('--')) break;
    flags.push(word);
  }
  return flags;
}
