import type { components } from '../../api/schema';

export type Workflow = components['schemas']['workflows.Workflow'];
export type Run = components['schemas']['workflows.Run'];
export type StepRef = components['schemas']['workflows.Step'];
export type InputRef = components['schemas']['workflows.Input'];

/** What the builder edits: the parts of a workflow definition a user sets. */
export interface Draft {
  name: string;
  description: string;
  input: { kind: 'stream'; stream: string } | { kind: 'component'; component: string; stream: string };
  steps: StepDraft[];
  sinks: StepDraft[];
  maxAttempts: string;
  deadLetterStream: string;
}

/** A step as the builder holds it: an inline typed step (type + config) or a reference to a component. */
export type StepDraft =
  | { key: number; mode: 'type'; type: string; config: Record<string, unknown> }
  | { key: number; mode: 'component'; component: string };

let nextKey = 1;
export function newKey(): number {
  nextKey += 1;
  return nextKey;
}

export function emptyDraft(): Draft {
  return {
    name: '',
    description: '',
    input: { kind: 'stream', stream: '' },
    steps: [],
    sinks: [{ key: newKey(), mode: 'type', type: 'stream.publish', config: {} }],
    maxAttempts: '',
    deadLetterStream: '',
  };
}

function toStep(step: StepDraft): StepRef {
  return step.mode === 'component' ? { component: step.component } : { type: step.type, config: step.config };
}

function fromStep(step: StepRef): StepDraft {
  return 'component' in step
    ? { key: newKey(), mode: 'component', component: step.component }
    : { key: newKey(), mode: 'type', type: step.type, config: step.config ?? {} };
}

/** The request body (create or replace) for a draft. */
export function toDefinition(draft: Draft): Record<string, unknown> {
  const input =
    draft.input.kind === 'stream'
      ? { stream: draft.input.stream }
      : { component: draft.input.component, ...(draft.input.stream ? { stream: draft.input.stream } : {}) };
  const onError = {
    ...(draft.maxAttempts ? { max_attempts: Number(draft.maxAttempts) } : {}),
    ...(draft.deadLetterStream ? { dead_letter_stream: draft.deadLetterStream } : {}),
  };
  return {
    name: draft.name,
    ...(draft.description ? { description: draft.description } : {}),
    input,
    steps: draft.steps.map(toStep),
    sinks: draft.sinks.map(toStep),
    ...(Object.keys(onError).length ? { on_error: onError } : {}),
  };
}

export function fromWorkflow(workflow: Workflow): Draft {
  const input = workflow.input as { stream?: string; component?: string };
  return {
    name: workflow.name,
    description: workflow.description ?? '',
    input:
      input.component !== undefined
        ? { kind: 'component', component: input.component, stream: input.stream ?? '' }
        : { kind: 'stream', stream: input.stream ?? '' },
    steps: workflow.steps.map(fromStep),
    sinks: workflow.sinks.map(fromStep),
    maxAttempts: workflow.on_error.max_attempts !== undefined ? String(workflow.on_error.max_attempts) : '',
    deadLetterStream: workflow.on_error.dead_letter_stream ?? '',
  };
}
