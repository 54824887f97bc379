import type { Dependent, DependentsSource } from '../../kernel/plugin/api.js';
import { variableReferences } from '../variables/contract.js';
import type { Definition, StepRef } from './definition.js';
import { WorkflowStore } from './store.js';

/** What one step (inline or by component) of a definition uses, as (kind, id, via). */
function usesOfStep(ref: StepRef, via: string): Array<[string, string, string]> {
  if ('component' in ref) return [['component', ref.component, via]];
  const config = ref.config ?? {};
  const out: Array<[string, string, string]> = [];
  if (ref.type === 'stream.publish' && typeof config.stream === 'string') out.push(['stream', config.stream, via]);
  if (ref.type.startsWith('codec.') && typeof config.codec === 'string') out.push(['codec', config.codec, via]);
  if (ref.type === 'script' && typeof config.workspace_id === 'string')
    out.push(['workspace', config.workspace_id, via]);
  return out;
}

/** Everything a deployed definition needs to keep running. */
export function usesOf(definition: Definition, inputStream: string | null): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = [];
  if (inputStream) out.push(['stream', inputStream, 'input stream']);
  if ('component' in definition.input) out.push(['component', definition.input.component, 'input']);
  definition.steps.forEach((s, i) => out.push(...usesOfStep(s, `step ${i}`)));
  definition.sinks.forEach((s, i) => out.push(...usesOfStep(s, `sink ${i}`)));
  if (definition.on_error.dead_letter_stream)
    out.push(['stream', definition.on_error.dead_letter_stream, 'dead-letter stream']);
  return out;
}

/** Where a definition refers to the tenant variable `name`, as the message says it (`/steps/0/config/url`). */
function variableUses(definition: Definition, name: string): Array<[string, string, string]> {
  return variableReferences(definition)
    .filter((ref) => ref.name === name)
    .map((ref) => ['variable', name, ref.pointer]);
}

/** Deployed workflows (running or paused) that use a stream, codec, component, workspace or variable. */
export const workflowDependents: DependentsSource = {
  async of(db, tenantId, resource) {
    if (resource.kind === 'variable') {
      const found: Dependent[] = [];
      for (const w of await new WorkflowStore(db).deployed(tenantId)) {
        const via = variableUses(w.definition, resource.id).map(([, , v]) => v);
        if (via.length > 0) found.push({ kind: 'workflow', id: w.id, via: via.join(', ') });
      }
      return found;
    }
    if (!['stream', 'codec', 'component', 'workspace'].includes(resource.kind)) return [];
    const found: Dependent[] = [];
    for (const w of await new WorkflowStore(db).deployed(tenantId)) {
      const via = usesOf(w.definition, w.input_stream)
        .filter(([kind, id]) => kind === resource.kind && id === resource.id)
        .map(([, , v]) => v);
      if (via.length > 0) found.push({ kind: 'workflow', id: w.id, via: [...new Set(via)].join(', ') });
    }
    return found;
  },
};
