import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { callOperation } from '../../api/call';
import type { components } from '../../api/schema';
import { useMe } from '../../auth/session';
import { ActionButton } from '../../kit/ActionButton';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { Time } from '../../kit/format';
import { type JsonSchema, JsonSchemaForm } from '../../kit/JsonSchemaForm';
import { JsonField, parseObject } from './JsonField';

export type Task = components['schemas']['bpmn.Task'];

/** The task's form (the model's camunda:formData as a JSON Schema), when it has fields. */
function formOf(task: Task | undefined): JsonSchema | undefined {
  const form: JsonSchema | undefined = task?.form;
  return form?.properties && Object.keys(form.properties).length > 0 ? form : undefined;
}

/** The fields' defaults, so a form starts with what the model proposes. */
function defaultsOf(form: JsonSchema | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(form?.properties ?? {}).flatMap(([name, p]) => (p.default === undefined ? [] : [[name, p.default]])),
  );
}

/** Claim for oneself, or give back: who works on the task. */
function Assignment({ task }: { task: Task }) {
  const me = useMe();
  const queryClient = useQueryClient();
  // A user's name; a single sign-on subject (no username) claims by its id, provider:subject.
  const assignee = me?.user?.username ?? me?.user?.id ?? '';
  const change = useMutation({
    mutationFn: (claim: boolean) =>
      claim
        ? callOperation({ op: 'claimBpmnTask', params: { id: task.id }, body: { assignee } })
        : callOperation({ op: 'unclaimBpmnTask', params: { id: task.id }, body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['bpmn'] }),
  });
  return (
    <div className="toolbar">
      <p role="status" aria-label="Assignee">
        {task.assignee ? (
          <>
            Claimed by <strong>{task.assignee}</strong>
          </>
        ) : (
          'Nobody has claimed it.'
        )}
      </p>
      {task.assignee ? (
        <ActionButton op="unclaimBpmnTask" busy={change.isPending} onPress={() => change.mutate(false)}>
          Unclaim
        </ActionButton>
      ) : (
        <ActionButton op="claimBpmnTask" busy={change.isPending} onPress={() => change.mutate(true)}>
          Claim
        </ActionButton>
      )}
      <ErrorBanner error={change.error} />
    </div>
  );
}

/**
 * The task the user opened from the inbox: who holds it (claim, unclaim), its form (fields the
 * model declares) or free variables, and the completion (dry run first).
 */
export function TaskPanel({ task, onDone }: { task: Task; onDone: () => void }) {
  const detail = useQuery({
    queryKey: ['bpmn', 'tasks', task.id],
    queryFn: () => unwrap(api.GET('/bpmn/tasks/{id}', { params: { path: { id: task.id } } })),
  });
  const current = detail.data ?? task;
  const form = formOf(detail.data);
  const [values, setValues] = useState<Record<string, unknown> | null>(null);
  const [variables, setVariables] = useState('{}');
  const formValues = values ?? defaultsOf(form);
  const parsed = form ? { value: formValues } : parseObject(variables);
  return (
    <section className="card" aria-labelledby="task-title">
      <h2 id="task-title">Task {task.name ?? task.activity_id}</h2>
      <p>
        Instance{' '}
        <Link to="/bpmn/instances/$id" params={{ id: task.instance_id }}>
          {task.instance_id}
        </Link>
        , waiting since <Time value={task.created_at} />.
      </p>
      <ErrorBanner error={detail.error} />
      <Assignment task={current} />
      {form ? (
        <fieldset>
          <legend>Task form</legend>
          <JsonSchemaForm schema={form} value={formValues} onChange={setValues} pointer="/variables" />
        </fieldset>
      ) : (
        <JsonField
          label="Variables to complete with (JSON object)"
          pointer="/variables"
          value={variables}
          onChange={setVariables}
        />
      )}
      {parsed.value && !detail.isPending ? (
        <ConfirmAction
          call={{ op: 'completeBpmnTask', params: { id: task.id }, body: { variables: parsed.value } }}
          label="Complete task"
          variant="primary"
          description={`The task "${task.name ?? task.activity_id}" is completed with these variables and the instance moves on.`}
          invalidate={[['bpmn']]}
          onDone={onDone}
        />
      ) : null}
    </section>
  );
}
