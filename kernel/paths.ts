import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The project root, found from this compiled file (dist/kernel/paths.js) or its source. */
export const PROJECT_ROOT = fileURLToPath(
  new URL(import.meta.url.includes('/dist/') ? '../../' : '../', import.meta.url),
);

export function fromRoot(...parts: string[]): string {
  return join(PROJECT_ROOT, ...parts);
}
