import { useQuery } from '@tanstack/react-query';
import type { FormEvent, ReactNode } from 'react';
import { api, unwrapPage } from '../../api/client';
import { Field, TextField } from '../../kit/Field';
import { JsonSchemaForm } from '../../kit/JsonSchemaForm';
import { schemaOf, useComponentTypes } from '../components/types';
import { PipelinePicture } from './PipelinePicture';
import { newKey, type Draft, type StepDraft } from './types';

interface Props {
  draft: Draft;
  onChange: (draft: Draft) => void;
  onSubmit: () => void;
  error: unknown;
  /** The submit button(s) and code view, placed under the form. */
  actions: ReactNode;
  label: string;
}

function StepEditor({
  step,
  kind,
  index,
  list,
  error,
  onChange,
  onRemove,
}: {
  step: StepDraft;
  kind: 'processor' | 'sink';
  index: number;
  list: 'steps' | 'sinks';
  error: unknown;
  onChange: (s: StepDraft) => void;
  onRemove: () => void;
}) {
  const types = useComponentTypes();
  const fitting = types.data?.items.filter((t) => t.kind === kind) ?? [];
  const title = `${list === 'steps' ? 'Step' : 'Sink'} ${index + 1}`;
  const pointer = `/${list}/${index}`;
  const type = step.mode === 'type' ? types.data?.items.find((t) => t.name === step.type) : undefined;
  return (
    <fieldset className="step-card">
      <legend>{title}</legend>
      <Field label={`${title} uses`} pointer={`${pointer}/mode`}>
        {(input) => (
          <select
            {...input}
            value={step.mode}
            onChange={(e) =>
              onChange(
                e.target.value === 'component'
                  ? { key: step.key, mode: 'component', component: '' }
                  : { key: step.key, mode: 'type', type: '', config: {} },
              )
            }
          >
            <option value="type">a type, configured here</option>
            <option value="component">an existing component</option>
          </select>
        )}
      </Field>
      {step.mode === 'component' ? (
        <TextField
          label={`${title} component`}
          pointer={`${pointer}/component`}
          error={error}
          value={step.component}
          onChange={(component) => onChange({ ...step, component })}
          required
        />
      ) : (
        <>
          <Field label={`${title} type`} pointer={`${pointer}/type`} error={error} required hint={type?.summary}>
            {(input) => (
              <select
                {...input}
                value={step.type}
                onChange={(e) => onChange({ ...step, type: e.target.value, config: {} })}
              >
                <option value="">(choose)</option>
                {fitting.map((t) => (
                  <option key={t.name} value={t.name}>
                    {t.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {type ? (
            <JsonSchemaForm
              schema={schemaOf(type)}
              value={step.config}
              onChange={(config) => onChange({ ...step, config })}
              pointer={`${pointer}/config`}
              error={error}
            />
          ) : null}
        </>
      )}
      <button type="button" className="btn btn-secondary" onClick={onRemove}>
        Remove {title.toLowerCase()}
      </button>
    </fieldset>
  );
}

/** The workflow builder: input → steps → sinks, each a form from its type's schema, with a picture of the pipeline. */
export function WorkflowEditor({ draft, onChange, onSubmit, error, actions, label }: Props) {
  const sources = useQuery({
    queryKey: ['components', 'sources-for-input'],
    queryFn: () => unwrapPage(api.GET('/components', { params: { query: { limit: 200 } } })),
  });
  const streams = useQuery({
    queryKey: ['streams', 'for-input'],
    queryFn: () => unwrapPage(api.GET('/streams', { params: { query: { limit: 200 } } })),
  });
  const setList = (list: 'steps' | 'sinks', index: number, step: StepDraft | null) => {
    const next = [...draft[list]];
    if (step) next[index] = step;
    else next.splice(index, 1);
    onChange({ ...draft, [list]: next });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form onSubmit={submit} aria-label={label}>
      <datalist id="stream-ids">
        {streams.data?.items.map((s) => (
          <option key={s.id} value={s.id} />
        ))}
      </datalist>
      <datalist id="source-ids">
        {sources.data?.items.map((c) => (
          <option key={c.id} value={c.id} />
        ))}
      </datalist>
      <PipelinePicture draft={draft} />
      <TextField
        label="Workflow name"
        pointer="/name"
        error={error}
        value={draft.name}
        onChange={(name) => onChange({ ...draft, name })}
        required
      />
      <TextField
        label="Description"
        pointer="/description"
        error={error}
        value={draft.description}
        onChange={(description) => onChange({ ...draft, description })}
      />
      <fieldset className="step-card">
        <legend>Input</legend>
        <Field label="Reads from" pointer="/input">
          {(input) => (
            <select
              {...input}
              value={draft.input.kind}
              onChange={(e) =>
                onChange({
                  ...draft,
                  input:
                    e.target.value === 'component'
                      ? { kind: 'component', component: '', stream: '' }
                      : { kind: 'stream', stream: '' },
                })
              }
            >
              <option value="stream">a stream</option>
              <option value="component">a source component</option>
            </select>
          )}
        </Field>
        {draft.input.kind === 'component' ? (
          <Field
            label="Source component"
            pointer="/input/component"
            error={error}
            required
            hint="The workflow reads the stream this source appends to."
          >
            {(input) => (
              <input
                {...input}
                list="source-ids"
                value={draft.input.kind === 'component' ? draft.input.component : ''}
                onChange={(e) =>
                  onChange({
                    ...draft,
                    input: { kind: 'component', component: e.target.value, stream: draft.input.stream },
                  })
                }
              />
            )}
          </Field>
        ) : (
          <Field label="Input stream" pointer="/input/stream" error={error} required>
            {(input) => (
              <input
                {...input}
                list="stream-ids"
                value={draft.input.stream}
                onChange={(e) => onChange({ ...draft, input: { kind: 'stream', stream: e.target.value } })}
              />
            )}
          </Field>
        )}
      </fieldset>
      <h2>Steps</h2>
      {draft.steps.length === 0 ? <p className="muted">No steps: messages go straight to the sinks.</p> : null}
      {draft.steps.map((step, i) => (
        <StepEditor
          key={step.key}
          step={step}
          kind="processor"
          index={i}
          list="steps"
          error={error}
          onChange={(s) => setList('steps', i, s)}
          onRemove={() => setList('steps', i, null)}
        />
      ))}
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() =>
          onChange({ ...draft, steps: [...draft.steps, { key: newKey(), mode: 'type', type: '', config: {} }] })
        }
      >
        Add step
      </button>
      <h2>Sinks</h2>
      {draft.sinks.map((step, i) => (
        <StepEditor
          key={step.key}
          step={step}
          kind="sink"
          index={i}
          list="sinks"
          error={error}
          onChange={(s) => setList('sinks', i, s)}
          onRemove={() => setList('sinks', i, null)}
        />
      ))}
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() =>
          onChange({ ...draft, sinks: [...draft.sinks, { key: newKey(), mode: 'type', type: '', config: {} }] })
        }
      >
        Add sink
      </button>
      <h2>On error</h2>
      <Field label="Attempts before dead letter" pointer="/on_error/max_attempts" error={error} hint="Default 3.">
        {(input) => (
          <input
            {...input}
            type="number"
            min={1}
            max={100}
            value={draft.maxAttempts}
            onChange={(e) => onChange({ ...draft, maxAttempts: e.target.value })}
          />
        )}
      </Field>
      <Field label="Dead-letter stream" pointer="/on_error/dead_letter_stream" error={error}>
        {(input) => (
          <input
            {...input}
            list="stream-ids"
            value={draft.deadLetterStream}
            onChange={(e) => onChange({ ...draft, deadLetterStream: e.target.value })}
          />
        )}
      </Field>
      {actions}
    </form>
  );
}
