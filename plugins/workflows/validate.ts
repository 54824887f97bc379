import type { Knex } from 'knex';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ApiError } from '../../kernel/errors.js';
import type { Extensions } from '../../kernel/plugin/api.js';
import { componentTypes, type ComponentKind, type ComponentType } from '../components/contract.js';
import { streamCodecs } from '../streams/contract.js';
import { studioWorkspaceFiles } from '../studio/contract.js';
import type { Sandbox } from '../../sandbox/types.js';
import type { ComponentLookup } from './components-directory.js';
import { checkScriptCompiles } from './script-check.js';
import { workflowStreams, type WorkflowStreams } from './contract.js';
import type { Definition, StepRef } from './definition.js';

type Db = Knex | Knex.Transaction;

function refused(pointer: string, message: string): ApiError {
  return new ApiError('validation_error', `${pointer}: ${message}.`, { details: [{ in: 'body', pointer, message }] });
}

/** The types the enabled plugins contribute, by name. */
export function typesByName(extensions: Extensions): Map<string, ComponentType> {
  return new Map(extensions.all(componentTypes).map((t) => [t.name, t]));
}

export function streamsOf(extensions: Extensions): WorkflowStreams {
  const streams = extensions.all(workflowStreams)[0];
  if (!streams) throw new ApiError('not_configured', 'Workflows need the streams plugin, which is not enabled.');
  return streams;
}

// With the formats types declare (`uri`, `date-time`...): without them ajv ignores `format`, and an
// inline step's config the components plugin would refuse passed here, to fail only at run time.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;
const ajv = new Ajv({ strict: false, allErrors: false });
addFormats(ajv);
const compiled = new WeakMap<object, ValidateFunction>();

function checkConfig(type: ComponentType, config: Record<string, unknown>, pointer: string): void {
  let validate = compiled.get(type.config_schema);
  if (!validate) {
    validate = ajv.compile(type.config_schema);
    compiled.set(type.config_schema, validate);
  }
  if (validate(config)) return;
  const error = validate.errors?.[0];
  const where = `${pointer}/config${error?.instancePath ?? ''}`;
  const missing =
    error?.keyword === 'required' ? `/${String((error.params as { missingProperty?: string }).missingProperty)}` : '';
  throw refused(where + missing, `does not fit ${type.name}: ${error?.message ?? 'invalid'}`);
}

/** A step or sink with what it resolves to: its type and configuration. */
export interface ResolvedStep {
  type: ComponentType;
  config: Record<string, unknown>;
  componentId?: string;
}

/** What validation and pipelines need: the enabled plugins' contributions and the component directory. */
export interface Resolvers {
  extensions: Extensions;
  components: ComponentLookup;
  /** Compiles scripts when a workflow is saved or deployed (absent: not checked). */
  sandbox?: Pick<Sandbox, 'compileCheck'>;
}

/** Resolves a step or sink, checking that it exists in the tenant and that its kind fits its position. */
export async function resolveStep(
  db: Db,
  resolvers: Resolvers,
  tenantId: string,
  ref: StepRef,
  pointer: string,
  kind: ComponentKind,
): Promise<ResolvedStep> {
  const { extensions } = resolvers;
  const types = typesByName(extensions);
  let typeName: string;
  let config: Record<string, unknown>;
  let componentId: string | undefined;
  if ('component' in ref) {
    const found = await resolvers.components.resolve(db, tenantId, ref.component);
    if (!found) throw refused(`${pointer}/component`, `names no component of this tenant`);
    typeName = found.type;
    config = found.config;
    componentId = ref.component;
  } else {
    typeName = ref.type;
    config = ref.config ?? {};
  }
  const type = types.get(typeName);
  if (!type)
    throw refused(
      'component' in ref ? `${pointer}/component` : `${pointer}/type`,
      `no enabled plugin contributes the component type "${typeName}"`,
    );
  if (type.kind !== kind)
    throw refused(
      'component' in ref ? `${pointer}/component` : `${pointer}/type`,
      `${typeName} is a ${type.kind}; only a ${kind} fits here`,
    );
  if (!('component' in ref)) checkConfig(type, config, pointer);
  return { type, config, ...(componentId !== undefined ? { componentId } : {}) };
}

/** A source component's stream: the one the directory names, else its config's `stream`. */
async function sourceStream(db: Db, resolvers: Resolvers, tenantId: string, id: string): Promise<string | undefined> {
  const found = await resolvers.components.resolve(db, tenantId, id);
  return found?.stream ?? (typeof found?.config.stream === 'string' ? found.config.stream : undefined);
}

/** The stream a workflow reads. */
export async function inputStreamId(
  db: Db,
  resolvers: Resolvers,
  tenantId: string,
  definition: Definition,
): Promise<string> {
  const input = definition.input;
  if ('stream' in input && input.stream !== undefined && !('component' in input)) return input.stream;
  if ('component' in input) {
    await resolveStep(db, resolvers, tenantId, { component: input.component }, '/input', 'source');
    const stream = input.stream ?? (await sourceStream(db, resolvers, tenantId, input.component));
    if (!stream) throw refused('/input/stream', 'name the stream the source component writes into');
    return stream;
  }
  throw refused('/input', 'send {stream} or {component}');
}

/** The streams a definition's `stream.publish` sinks write into. */
export function sinkStreams(definition: Definition): string[] {
  return definition.sinks.flatMap((s) =>
    'type' in s && s.type === 'stream.publish' && typeof s.config?.stream === 'string' ? [s.config.stream] : [],
  );
}

/**
 * Everything a definition references exists in the tenant and fits where it is used; no loop
 * stream → workflow(s) → the same stream unless `allow_cycles`. `others` are the tenant's other
 * workflows as (input, sink streams) edges.
 */
export async function validateDefinition(
  db: Db,
  resolvers: Resolvers,
  tenantId: string,
  definition: Definition,
  others: ReadonlyArray<{ input: string; outputs: string[] }>,
): Promise<{ input: string }> {
  const { extensions } = resolvers;
  const streams = streamsOf(extensions);
  const input = await inputStreamId(db, resolvers, tenantId, definition);
  if (!(await streams.stream(db, tenantId, input)))
    throw refused('/input/stream', `names no stream of this tenant ("${input}")`);
  const codecs = extensions.all(streamCodecs)[0];
  const sinkOutputs: string[] = [];
  for (const [list, kind] of [
    ['steps', 'processor'],
    ['sinks', 'sink'],
  ] as const) {
    for (const [i, ref] of definition[list].entries()) {
      const pointer = `/${list}/${i}`;
      const step = await resolveStep(db, resolvers, tenantId, ref, pointer, kind);
      if (typeof step.config.stream === 'string' && step.type.name === 'stream.publish') {
        if (!(await streams.stream(db, tenantId, step.config.stream)))
          throw refused(`${pointer}/config/stream`, `names no stream of this tenant ("${step.config.stream}")`);
        sinkOutputs.push(step.config.stream);
      }
      if (typeof step.config.codec === 'string' && step.type.name.startsWith('codec.')) {
        if (!codecs || !(await codecs.resolve(db, tenantId, step.config.codec)))
          throw refused(`${pointer}/config/codec`, `names no codec of this tenant ("${step.config.codec}")`);
      }
      const workspace =
        typeof step.config.workspace_id === 'string' && step.type.name === 'script'
          ? await checkWorkspace(db, extensions, tenantId, step.config, pointer)
          : undefined;
      await checkScriptCompiles(resolvers.sandbox, step.type.name, step.config, ref, pointer, workspace);
    }
  }
  if (definition.sinks.length === 0) throw refused('/sinks', 'a workflow needs at least one sink');
  const dead = definition.on_error.dead_letter_stream;
  if (dead !== undefined && !(await streams.stream(db, tenantId, dead)))
    throw refused('/on_error/dead_letter_stream', `names no stream of this tenant ("${dead}")`);
  if (!definition.allow_cycles && reaches([...sinkOutputs, ...(dead ? [dead] : [])], input, others)) {
    throw refused(
      '/sinks',
      `the workflow's outputs flow back into its input stream "${input}"; set allow_cycles to keep the loop`,
    );
  }
  return { input };
}

/** A `script` step's studio workspace exists in the tenant, with the pinned revision and the entry file. */
async function checkWorkspace(
  db: Db,
  extensions: Extensions,
  tenantId: string,
  config: Record<string, unknown>,
  pointer: string,
): Promise<{ files: Readonly<Record<string, string>>; entry: string }> {
  const studio = extensions.all(studioWorkspaceFiles)[0];
  if (!studio)
    throw refused(
      `${pointer}/config/workspace_id`,
      'scripts from studio workspaces need the studio plugin, which is not enabled',
    );
  const workspace = String(config.workspace_id);
  const revision = typeof config.revision === 'number' ? config.revision : undefined;
  const found = await studio.read(db, tenantId, workspace, revision);
  if (!found) {
    if (revision !== undefined && (await studio.read(db, tenantId, workspace)))
      throw refused(`${pointer}/config/revision`, `studio workspace "${workspace}" has no revision ${revision}`);
    throw refused(`${pointer}/config/workspace_id`, `names no studio workspace of this tenant ("${workspace}")`);
  }
  const entry = typeof config.entry === 'string' ? config.entry : 'main.js';
  if (!Object.hasOwn(found.files, entry))
    throw refused(
      `${pointer}/config/entry`,
      `"${entry}" is not a file of studio workspace "${workspace}" at revision ${found.revision}`,
    );
  return { files: found.files, entry };
}

/** Whether following stream → workflow → stream edges from `from` comes back to `target`. */
function reaches(
  from: readonly string[],
  target: string,
  edges: ReadonlyArray<{ input: string; outputs: string[] }>,
): boolean {
  const seen = new Set<string>();
  const queue = [...from];
  while (queue.length > 0) {
    const stream = queue.shift() as string;
    if (stream === target) return true;
    if (seen.has(stream)) continue;
    seen.add(stream);
    for (const edge of edges) if (edge.input === stream) queue.push(...edge.outputs);
  }
  return false;
}
