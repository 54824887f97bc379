import { ApiError } from '../../kernel/errors.js';
import type { BundleItem } from './contract.js';
import type { Diff } from './planner.js';

/** The names of the secret placeholders (`{"$secret": name}`) anywhere in `value`. */
function placeholders(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) placeholders(v, into);
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length === 1 && keys[0] === '$secret' && typeof record.$secret === 'string') into.add(record.$secret);
    else for (const v of Object.values(record)) placeholders(v, into);
  }
  return into;
}

/**
 * Secrets sent with an apply may only name placeholders of what the plan writes (created or
 * updated items): a value for anything else would be dropped silently, so it is a 400 naming it.
 */
export function checkSuppliedSecrets(
  secrets: Readonly<Record<string, unknown>>,
  resources: Record<string, BundleItem[]>,
  diff: Diff,
): void {
  const written = new Set([...diff.create, ...diff.update].map((c) => `${c.kind}\u001f${c.id}`));
  const names = new Set<string>();
  for (const [kind, items] of Object.entries(resources))
    for (const item of items) if (written.has(`${kind}\u001f${item.id}`)) placeholders(item.content, names);
  const unknown = Object.keys(secrets).filter((name) => !names.has(name));
  if (unknown.length > 0)
    throw new ApiError(
      'validation_error',
      `The plan writes no secret named ${unknown.join(', ')}${names.size > 0 ? ` (it writes: ${[...names].sort().join(', ')})` : ''}.`,
      {
        details: unknown.map((name) => ({
          in: 'body',
          pointer: `/secrets/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`,
          message: 'names no secret placeholder of a component this plan creates or updates',
        })),
      },
    );
}
