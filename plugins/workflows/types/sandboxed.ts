import type { ComponentType, RuntimeMessage, StepContext } from '../../components/contract.js';
import type { Sandbox, SandboxResult } from '../../../sandbox/types.js';
import type { Knex } from 'knex';
import type { WorkspaceFileReader } from '../../studio/contract.js';
import { sandboxInput, withValue } from './script-input.js';

/** Where a `script` step's files come from: its inline source, or a studio workspace at a revision. */
export interface ScriptSources {
  files(
    tenantId: string,
    config: Readonly<Record<string, unknown>>,
    db?: Knex | Knex.Transaction,
  ): Promise<{ files: Record<string, string>; entry: string; revision?: number }>;
}

/**
 * Inline source, or a studio workspace through the studio's reader (`studio.workspace-files`):
 * the pinned `revision`, or without one the workspace's current revision when the worker builds
 * the step — at deploy's first batch, then again whenever the worker rebuilds its pipeline
 * (every PIPELINE_TTL_MS), so an unpinned step follows the workspace; pin to hold it still.
 */
export function scriptSources(db: Knex, reader: () => WorkspaceFileReader | undefined): ScriptSources {
  return {
    async files(tenantId, config, within) {
      if (typeof config.source === 'string') return { files: { 'main.js': config.source }, entry: 'main.js' };
      const workspace = String(config.workspace_id);
      const studio = reader();
      if (!studio) throw new Error('scripts from studio workspaces need the studio plugin, which is not enabled');
      const revision = typeof config.revision === 'number' ? config.revision : undefined;
      const found = await studio.read(within ?? db, tenantId, workspace, revision);
      if (!found)
        throw new Error(
          revision === undefined
            ? `no studio workspace "${workspace}" in this tenant`
            : `studio workspace "${workspace}" has no revision ${revision}`,
        );
      const entry = typeof config.entry === 'string' ? config.entry : 'main.js';
      if (!Object.hasOwn(found.files, entry))
        throw new Error(`"${entry}" is not a file of studio workspace "${workspace}" at revision ${found.revision}`);
      return { files: { ...found.files }, entry, revision: found.revision };
    },
  };
}

const SCRIPT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    source: {
      type: 'string',
      minLength: 1,
      maxLength: 262144,
      description: 'Inline JavaScript (an ES module) run in the sandbox.',
    },
    workspace_id: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'A studio workspace holding the script.',
    },
    revision: {
      type: 'integer',
      minimum: 1,
      description: 'The workspace revision to run; without it, the current one when the worker builds the step.',
    },
    entry: {
      type: 'string',
      minLength: 1,
      maxLength: 500,
      description: 'The workspace file to run (default main.js).',
    },
  },
  oneOf: [{ required: ['source'] }, { required: ['workspace_id'] }],
} as const;

const PREDICATE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['source'],
  properties: {
    source: {
      type: 'string',
      minLength: 1,
      maxLength: 262144,
      description: 'Inline JavaScript whose `result` decides (filter) or becomes the value (map).',
    },
  },
} as const;

/** A failed script run as the error of its attempt (line included when known). */
function failure(result: SandboxResult): Error {
  const e = result.error;
  return new Error(
    `script failed${e?.limit ? ` (${e.limit} limit)` : ''}: ${e?.message ?? 'unknown error'}${e?.line !== undefined ? ` (line ${e.line})` : ''}`,
  );
}

type Mode = 'script' | 'filter' | 'map';

function sandboxedType(
  name: Mode,
  summary: string,
  schema: object,
  sandbox: () => Sandbox | undefined,
  sources: ScriptSources,
): ComponentType {
  return {
    name,
    kind: 'processor',
    summary,
    config_schema: schema as ComponentType['config_schema'],
    async create(config, where) {
      const { files, entry } =
        name === 'script'
          ? await sources.files(where.tenantId, config, (where as { db?: Knex | Knex.Transaction }).db)
          : { files: { 'main.js': String(config.source) }, entry: 'main.js' };
      return {
        async process(message: RuntimeMessage, context: StepContext): Promise<RuntimeMessage[]> {
          const box = sandbox();
          if (!box) throw new Error('no sandbox is available in this deployment');
          const result = await box.run({ tenantId: context.tenantId, files, entry, input: sandboxInput(message) });
          for (const line of result.logs) context.log('info', line, { script: name });
          if (!result.ok) throw failure(result);
          if (name === 'filter') return result.result ? [message] : [];
          if (name === 'map') return result.result === undefined ? [] : [withValue(message, result.result)];
          // script: what it pushed goes onward; without pushes, its result (if any).
          if (result.pushed.length > 0) return result.pushed.map((value) => withValue(message, value));
          return result.result === undefined ? [] : [withValue(message, result.result)];
        },
      };
    },
  };
}

/** `script`, `filter` and `map`: processors that run tenant code in the sandbox. */
export function sandboxedTypes(sandbox: () => Sandbox | undefined, sources: ScriptSources): ComponentType[] {
  return [
    sandboxedType(
      'script',
      'Runs a script; what it pushes (service.route.push) or its result goes onward.',
      SCRIPT_SCHEMA,
      sandbox,
      sources,
    ),
    sandboxedType(
      'filter',
      "Passes the message on when the script's result is truthy.",
      PREDICATE_SCHEMA,
      sandbox,
      sources,
    ),
    sandboxedType(
      'map',
      "Replaces the value with the script's result (undefined drops the message).",
      PREDICATE_SCHEMA,
      sandbox,
      sources,
    ),
  ];
}
