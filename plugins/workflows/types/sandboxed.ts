import type { ComponentType, RuntimeMessage, StepContext } from '../../components/contract.js';
import type { Sandbox, SandboxResult } from '../../../sandbox/types.js';
import { sandboxInput, withValue } from './script-input.js';

/** Where scripts come from: inline source today; a studio workspace (and revision) when studio offers it. */
export interface ScriptSources {
  files(tenantId: string, config: Readonly<Record<string, unknown>>): Promise<{ files: Record<string, string>; entry: string }>;
}

export const inlineSources: ScriptSources = {
  async files(_tenantId, config) {
    if (typeof config.source === 'string') return { files: { 'main.js': config.source }, entry: 'main.js' };
    throw new Error('scripts from studio workspaces (workspace_id) are not available in this deployment yet; use inline source');
  },
};

const SCRIPT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    source: { type: 'string', minLength: 1, maxLength: 262144, description: 'Inline JavaScript (an ES module) run in the sandbox.' },
    workspace_id: { type: 'string', minLength: 1, maxLength: 200, description: 'A studio workspace holding the script.' },
    revision: { type: 'integer', minimum: 1 },
    entry: { type: 'string', minLength: 1, maxLength: 500 },
  },
  oneOf: [{ required: ['source'] }, { required: ['workspace_id'] }],
} as const;

const PREDICATE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['source'],
  properties: { source: { type: 'string', minLength: 1, maxLength: 262144, description: 'Inline JavaScript whose `result` decides (filter) or becomes the value (map).' } },
} as const;

/** A failed script run as the error of its attempt (line included when known). */
function failure(result: SandboxResult): Error {
  const e = result.error;
  return new Error(`script failed${e?.limit ? ` (${e.limit} limit)` : ''}: ${e?.message ?? 'unknown error'}${e?.line !== undefined ? ` (line ${e.line})` : ''}`);
}

type Mode = 'script' | 'filter' | 'map';

function sandboxedType(name: Mode, summary: string, schema: object, sandbox: () => Sandbox | undefined, sources: ScriptSources): ComponentType {
  return {
    name,
    kind: 'processor',
    summary,
    config_schema: schema as ComponentType['config_schema'],
    async create(config, where) {
      const { files, entry } = name === 'script' ? await sources.files(where.tenantId, config) : { files: { 'main.js': String(config.source) }, entry: 'main.js' };
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
export function sandboxedTypes(sandbox: () => Sandbox | undefined, sources: ScriptSources = inlineSources): ComponentType[] {
  return [
    sandboxedType('script', 'Runs a script; what it pushes (service.route.push) or its result goes onward.', SCRIPT_SCHEMA, sandbox, sources),
    sandboxedType('filter', 'Passes the message on when the script\'s result is truthy.', PREDICATE_SCHEMA, sandbox, sources),
    sandboxedType('map', 'Replaces the value with the script\'s result (undefined drops the message).', PREDICATE_SCHEMA, sandbox, sources),
  ];
}
