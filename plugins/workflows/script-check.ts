import { ApiError } from '../../kernel/errors.js';
import type { Sandbox } from '../../sandbox/types.js';
import type { StepRef } from './definition.js';

/** The step types whose config holds tenant code (sandboxed.ts). */
const SCRIPTED = new Set(['script', 'filter', 'map']);

/**
 * A script, filter or map step must compile when its workflow is saved or deployed: a syntax
 * error is a 400 naming the step's field and the line, not a dead letter per message later. The
 * sandbox compiles it without running it (sandbox/compile-check.ts). `files` are a workspace's
 * (with its entry) when the step runs one; otherwise its inline `source`.
 */
export async function checkScriptCompiles(
  sandbox: Pick<Sandbox, 'compileCheck'> | undefined,
  typeName: string,
  config: Readonly<Record<string, unknown>>,
  ref: StepRef,
  pointer: string,
  workspace?: { files: Readonly<Record<string, string>>; entry: string },
): Promise<void> {
  if (!sandbox || !SCRIPTED.has(typeName)) return;
  const inline = typeof config.source === 'string' ? config.source : undefined;
  if (inline === undefined && !workspace) return;
  const problem =
    inline !== undefined
      ? await sandbox.compileCheck(inline)
      : await sandbox.compileCheck(workspace?.files ?? {}, workspace?.entry);
  if (!problem) return;
  const field =
    'component' in ref
      ? `${pointer}/component`
      : `${pointer}/config/${inline !== undefined ? 'source' : 'workspace_id'}`;
  const where =
    problem.line !== undefined ? `line ${problem.line}${problem.file && workspace ? ` of ${problem.file}` : ''}: ` : '';
  const message = `does not compile: ${where}${problem.message}`;
  throw new ApiError('validation_error', `${field}: ${message}.`, {
    details: [{ in: 'body', pointer: field, message }],
  });
}
