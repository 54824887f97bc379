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

/** A job's id follows from its instance and execution, as a task's does. */
export function jobIdOf(instanceId: string, executionId: string): string {
  return `bpj_${createHash('sha256').update(`job:${instanceId}:${executionId}`).digest('hex').slice(0, 32)}`;
}
