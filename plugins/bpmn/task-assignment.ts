import type { DefinitionMeta } from './definitions.js';
import { sharedExpressions } from './engine-library.js';
import type { Wait } from './engine-types.js';

type TaskSpec = NonNullable<DefinitionMeta['tasks']>[string];

/** A user task's assignment from the model, its expressions (`${approver}`, `= approver`) resolved against `variables` now. */
export function taskAssignment(
  spec: TaskSpec | undefined,
  variables: Record<string, unknown>,
): Partial<Extract<Wait, { kind: 'task' }>> {
  if (!spec) return {};
  const resolve = (text: string): unknown => {
    try {
      return (sharedExpressions() as { resolveExpression(e: string, c: unknown): unknown }).resolveExpression(text, {
        environment: { variables },
      });
    } catch {
      return undefined;
    }
  };
  const one = (text: string | undefined): string | undefined => {
    if (text === undefined) return undefined;
    const value = resolve(text);
    return value === undefined || value === null || value === '' ? undefined : String(value);
  };
  const many = (list: string[] | undefined): string[] | undefined =>
    list?.flatMap((item) => {
      const value = resolve(item);
      return Array.isArray(value)
        ? value.map(String)
        : value === undefined || value === null
          ? []
          : String(value)
              .split(',')
              .map((s) => s.trim());
    });
  const due = one(spec.due_date);
  const dueAt = due !== undefined && !Number.isNaN(Date.parse(due)) ? new Date(due).toISOString() : undefined;
  const result: Partial<Extract<Wait, { kind: 'task' }>> = {};
  const assignee = one(spec.assignee);
  if (assignee !== undefined) result.assignee = assignee;
  const users = many(spec.candidate_users);
  if (users?.length) result.candidateUsers = users;
  const groups = many(spec.candidate_groups);
  if (groups?.length) result.candidateGroups = groups;
  if (dueAt !== undefined) result.dueAt = dueAt;
  return result;
}
