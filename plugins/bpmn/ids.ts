import { createHash, randomBytes } from 'node:crypto';

/**
 * Ids that sort by creation time (millisecond prefix, then randomness), so listing by id is
 * listing by age and a keyset cursor on id sees every older row exactly once.
 */
export function newId(prefix: string): string {
  const time = Date.now().toString(36).padStart(9, '0');
  return `${prefix}_${time}${randomBytes(8).toString('hex')}`;
}

/** A user task's id follows from its instance and execution, so an advance knows it without reading it back. */
export function taskIdOf(instanceId: string, executionId: string): string {
  return `bpt_${createHash('sha256').update(`${instanceId}:${executionId}`).digest('hex').slice(0, 32)}`;
}
