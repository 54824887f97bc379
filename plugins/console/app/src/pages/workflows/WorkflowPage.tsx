import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { callOperation } from '../../api/call';
import { ActionButton } from '../../kit/ActionButton';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { StateBadge } from '../../kit/format';
import { HistoryTab } from '../../kit/HistoryTab';
import { RouteTabs } from '../../kit/RouteTabs';
import { ShowAsCode } from '../../kit/ShowAsCode';
import { PipelinePicture } from './PipelinePicture';
import { Revisions } from './Revisions';
import { WaitingNotice } from './WaitingNotice';
import { Runs } from './Runs';
import { type WORKFLOW_TABS, workflowRoute } from './routes';
import { fromWorkflow, toDefinition, type Workflow } from './types';
import { WorkflowEditor } from './WorkflowEditor';

type Tab = (typeof WORKFLOW_TABS)[number];

function Edit({ workflow, onSaved }: { workflow: Workflow; onSaved: (revision: number) => void }) {
  const [draft, setDraft] = useState(() => fromWorkflow(workflow));
  const queryClient = useQueryClient();
  const body = toDefinition(draft);
  const save = useMutation({
    mutationFn: () => callOperation<Workflow>({ op: 'replaceWorkflow', params: { id: workflow.id }, body }),
    onSuccess: async (saved) => {
      // Told before the refetch: the new revision remounts this editor (its key), and the page keeps the notice.
      onSaved(saved.revision);
      await queryClient.invalidateQueries({ queryKey: ['workflows'] });
    },
  });
  return (
    <WorkflowEditor
      label="Edit workflow"
      draft={draft}
      onChange={setDraft}
      onSubmit={() => save.mutate()}
      error={save.error}
      actions={
        <>
          <ErrorBanner error={save.error} />
          <ActionButton op="replaceWorkflow" type="submit" variant="primary" busy={save.isPending}>
            Save revision
          </ActionButton>
          <ShowAsCode call={{ op: 'replaceWorkflow', params: { id: workflow.id }, body }} />
        </>
      }
    />
  );
}

/** One workflow: its pipeline, deploy / pause / resume, runs, revisions with diffs, editing, history. */
export function WorkflowPage() {
  const { workflowId } = workflowRoute.useParams();
  const search = workflowRoute.useSearch();
  const navigate = workflowRoute.useNavigate();
  const go = useNavigate();
  const tab: Tab = search.tab ?? 'overview';
  const workflow = useQuery({
    queryKey: ['workflows', workflowId],
    queryFn: () => unwrap(api.GET('/workflows/{id}', { params: { path: { id: workflowId } } })),
    // Its state and why it waits change without the user doing anything (a component stopped elsewhere).
    refetchInterval: 5_000,
  });
  const w = workflow.data;
  const [saved, setSaved] = useState<number | null>(null);
  const invalidate = [['workflows']];
  return (
    <div className="page">
      <p>
        <Link to="/workflows" search={{}}>
          Workflows
        </Link>{' '}
        /
      </p>
      <div className="page-header">
        <h1>{w?.name ?? workflowId}</h1>
        {w ? (
          <div className="toolbar">
            <StateBadge state={w.state} />
            <span className="muted">
              revision {w.revision}
              {w.deployed_revision !== null ? `, deployed ${w.deployed_revision}` : ', not deployed'}
            </span>
            <ConfirmAction
              call={{ op: 'deployWorkflow', params: { id: workflowId }, body: { revision: w.revision } }}
              label="Deploy"
              variant="primary"
              description={`Runs revision ${w.revision} of ${w.name}.`}
              invalidate={invalidate}
            />
            <ConfirmAction
              call={{ op: 'pauseWorkflow', params: { id: workflowId }, body: {} }}
              label="Pause"
              description={`Stops taking messages; they wait in the input stream.`}
              invalidate={invalidate}
            />
            <ConfirmAction
              call={{ op: 'resumeWorkflow', params: { id: workflowId }, body: {} }}
              label="Resume"
              description="Takes messages again from where it paused."
              invalidate={invalidate}
            />
            <ConfirmAction
              call={{ op: 'deleteWorkflow', params: { id: workflowId } }}
              label="Delete workflow"
              variant="danger"
              description={`Deletes ${w.name} and its revisions.`}
              invalidate={invalidate}
              onDone={() => void go({ to: '/workflows', search: {} })}
            />
          </div>
        ) : null}
      </div>
      <ErrorBanner error={workflow.error} />
      {w ? <WaitingNotice workflow={w} /> : null}
      {w ? (
        <RouteTabs<Tab>
          label="Workflow views"
          selected={tab}
          onSelect={(next) => void navigate({ search: { tab: next } })}
          tabs={[
            {
              id: 'overview',
              title: 'Overview',
              content: () => (
                <>
                  {w.description ? <p>{w.description}</p> : null}
                  <PipelinePicture draft={fromWorkflow(w)} />
                  <pre tabIndex={0} role="region" aria-label="Definition">
                    {JSON.stringify(toDefinition(fromWorkflow(w)), null, 2)}
                  </pre>
                </>
              ),
            },
            { id: 'runs', title: 'Runs', content: () => <Runs workflowId={workflowId} /> },
            {
              id: 'revisions',
              title: 'Revisions',
              content: () => <Revisions workflowId={workflowId} latest={w.revision} />,
            },
            {
              id: 'edit',
              title: 'Edit',
              content: () => (
                <>
                  {saved !== null ? <p role="status">Saved as a new revision ({saved}). Deploy it to run it.</p> : null}
                  <Edit key={w.revision} workflow={w} onSaved={setSaved} />
                </>
              ),
            },
            { id: 'history', title: 'History', content: () => <HistoryTab resource={workflowId} /> },
          ]}
        />
      ) : null}
    </div>
  );
}
