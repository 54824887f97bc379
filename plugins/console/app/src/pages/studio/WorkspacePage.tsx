import '../pages.css';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { api, unwrap, unwrapPage } from '../../api/client';
import { useAllowed, useMe } from '../../auth/session';
import { ActionButton } from '../../kit/ActionButton';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { Time } from '../../kit/format';
import { HistoryTab } from '../../kit/HistoryTab';
import { FileTree } from './FileTree';
import { statusText, useCollab, usePaths, usePeers, useStatus } from './collab-hooks';
import { workspaceRoute } from './routes';
import { RunPanel } from './RunPanel';
import { TestsPanel } from './TestsPanel';
import './studio.css';

const CollabEditor = lazy(() => import('./CollabEditor'));
const TerminalPanel = lazy(() => import('./TerminalPanel'));

type Panel = NonNullable<ReturnType<typeof workspaceRoute.useSearch>['panel']>;

const PANELS: Array<{ id: Panel; label: string }> = [
  { id: 'run', label: 'Run' },
  { id: 'tests', label: 'Tests' },
  { id: 'terminal', label: 'Terminal' },
  { id: 'revisions', label: 'Revisions' },
  { id: 'history', label: 'History' },
];

function RevisionsPanel({ workspaceId }: { workspaceId: string }) {
  const list = useQuery({
    queryKey: ['studio', 'revisions', workspaceId],
    queryFn: () =>
      unwrapPage(
        api.GET('/studio/workspaces/{id}/revisions', { params: { path: { id: workspaceId }, query: { limit: 50 } } }),
      ),
  });
  return (
    <section aria-label="Revisions">
      <ErrorBanner error={list.error} />
      <ol className="timeline">
        {list.data?.items.map((r) => (
          <li key={r.revision}>
            Revision {r.revision} ({r.source}) by {r.created_by ?? 'unknown'}, <Time value={r.created_at} />:{' '}
            {r.changed.length ? `changed ${r.changed.join(', ')}` : 'no file changed'}
            {r.deleted.length ? `; deleted ${r.deleted.join(', ')}` : ''}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function WorkspacePage() {
  const { workspaceId } = workspaceRoute.useParams();
  const { file, panel = 'run' } = workspaceRoute.useSearch();
  const navigate = useNavigate({ from: workspaceRoute.fullPath });
  const me = useMe();
  const canWrite = useAllowed('putWorkspaceFiles');
  const workspace = useQuery({
    queryKey: ['studio', 'workspace', workspaceId],
    queryFn: () => unwrap(api.GET('/studio/workspaces/{id}', { params: { path: { id: workspaceId } } })),
  });
  const session = useCollab(workspaceId, me ? (me.user?.username ?? me.tenant_id) : undefined);
  const status = useStatus(session);
  const paths = usePaths(session);
  const peers = usePeers(session);
  const current = file ?? (paths.includes('main.js') ? 'main.js' : paths[0]);
  const save = useMutation({ mutationFn: () => (session ? session.saveAndWait() : Promise.resolve(undefined)) });

  return (
    <div className="page studio">
      <header className="page-header">
        <h1>Workspace {workspace.data?.name ?? workspaceId}</h1>
        <div className="toolbar">
          <ActionButton op="putWorkspaceFiles" variant="primary" busy={save.isPending} onPress={() => save.mutate()}>
            Save
          </ActionButton>
          <ConfirmAction
            call={{ op: 'deleteWorkspace', params: { id: workspaceId } }}
            label="Delete workspace"
            variant="danger"
            description="The workspace, its files and every revision are deleted; open editors are closed."
            invalidate={[['studio']]}
            onDone={() => navigate({ to: '/studio', search: {} })}
          />
        </div>
      </header>
      <ErrorBanner error={workspace.error ?? save.error} />
      <p role="status" className="muted">
        {statusText(status)}
        {status?.error ? ` ${status.error.message}` : ''}
      </p>
      <section aria-label="Editing now" className="presence">
        {peers.length === 0 ? (
          <span className="muted">Nobody else is editing.</span>
        ) : (
          <ul aria-label="Other editors">
            {peers.map((p) => (
              <li key={p.clientId}>
                <span className="presence-dot" style={{ backgroundColor: p.color }} aria-hidden="true" /> {p.name}
                {p.file ? <span className="muted"> in {p.file}</span> : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      <div className="studio-layout">
        <FileTree
          paths={paths}
          current={current}
          canWrite={canWrite.allowed}
          onOpen={(path) => navigate({ search: (s) => ({ ...s, file: path }) })}
          onAdd={(path) => {
            session?.text(path);
            void navigate({ search: (s) => ({ ...s, file: path }) });
          }}
        />
        <div className="studio-main">
          {session && status?.synced && current ? (
            <Suspense fallback={<p role="status">Loading the editor…</p>}>
              <h2 className="visually-hidden">Editing {current}</h2>
              <CollabEditor session={session} path={current} readOnly={!canWrite.allowed} />
            </Suspense>
          ) : (
            <p role="status">{status?.synced ? 'Choose or add a file.' : 'Loading the workspace…'}</p>
          )}
          <nav className="tabs" aria-label="Workspace tools">
            {PANELS.map((p) => (
              <Link
                key={p.id}
                to="."
                search={(s: Record<string, unknown>) => ({ ...s, panel: p.id })}
                aria-current={panel === p.id ? 'page' : undefined}
              >
                {p.label}
              </Link>
            ))}
          </nav>
          {panel === 'run' ? <RunPanel workspaceId={workspaceId} session={session} paths={paths} /> : null}
          {panel === 'tests' ? <TestsPanel workspaceId={workspaceId} session={session} /> : null}
          {panel === 'terminal' ? (
            <Suspense fallback={<p role="status">Loading the terminal…</p>}>
              <TerminalPanel workspaceId={workspaceId} />
            </Suspense>
          ) : null}
          {panel === 'revisions' ? <RevisionsPanel workspaceId={workspaceId} /> : null}
          {panel === 'history' ? <HistoryTab resource={workspaceId} /> : null}
        </div>
      </div>
    </div>
  );
}
