import { randomBytes } from 'node:crypto';

/**
 * Ids that sort by creation time (millisecond prefix, then randomness), so listing by id is
 * listing by age and a keyset cursor on id sees every older row exactly once.
 */
export function newId(prefix: string): string {
  const time = Date.now().toString(36).padStart(9, '0');
  return `${prefix}_${time}${randomBytes(8).toString('hex')}`;
}
