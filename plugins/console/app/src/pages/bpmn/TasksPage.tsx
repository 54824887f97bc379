import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId } from 'react';
import { api, unwrapPage } from '../../api/client';
import { StateBadge, Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { BpmnNav } from './BpmnNav';
import { TASK_STATES, tasksRoute } from './routes';
import { type Task, TaskPanel } from './TaskPanel';

type Search = ReturnType<typeof tasksRoute.useSearch>;

export function TasksPage() {
  const search = tasksRoute.useSearch();
  const navigate = useNavigate({ from: tasksRoute.fullPath });
  const stateId = useId();
  const assigneeId = useId();
  const state = search.state ?? 'open';
  const list = useQuery({
    queryKey: ['bpmn', 'tasks', search],
    queryFn: () =>
      unwrapPage(
        api.GET('/bpmn/tasks', {
          params: { query: { state, assignee: search.assignee, cursor: search.cursor, limit: 50 } },
        }),
      ),
    refetchInterval: 5_000,
  });
  const opened = list.data?.items.find((t) => t.id === search.task);
  const set = (patch: Partial<Search>) => navigate({ search: (s) => ({ ...s, ...patch, cursor: undefined }) });
  return (
    <div className="page">
      <header className="page-header">
        <h1>Task inbox</h1>
      </header>
      <BpmnNav />
      <form className="toolbar" aria-label="Filter tasks" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={stateId}>State</label>
          <select id={stateId} value={state} onChange={(e) => set({ state: e.target.value as Search['state'] })}>
            {TASK_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={assigneeId}>Assignee</label>
          <input
            id={assigneeId}
            defaultValue={search.assignee ?? ''}
            onBlur={(e) => set({ assignee: e.target.value || undefined })}
          />
        </div>
      </form>
      {opened && opened.state === 'open' ? (
        <TaskPanel key={opened.id} task={opened} onDone={() => set({ task: undefined })} />
      ) : null}
      <PagedTable<Task>
        caption="Tasks"
        rowKey={(t) => t.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={search.cursor}
        onPage={(cursor) => navigate({ search: (s) => ({ ...s, cursor }) })}
        empty="No tasks here."
        columns={[
          {
            header: 'Task',
            cell: (t) =>
              t.state === 'open' ? (
                <Link
                  to="."
                  search={(s: Search) => ({ ...s, task: t.id })}
                  aria-label={`Open task ${t.name ?? t.activity_id} of ${t.instance_id}`}
                >
                  {t.name ?? t.activity_id}
                </Link>
              ) : (
                (t.name ?? t.activity_id)
              ),
          },
          {
            header: 'Instance',
            cell: (t) => (
              <Link to="/bpmn/instances/$id" params={{ id: t.instance_id }}>
                {t.instance_id}
              </Link>
            ),
          },
          { header: 'Assignee', cell: (t) => t.assignee ?? '—' },
          { header: 'State', cell: (t) => <StateBadge state={t.state} /> },
          { header: 'Created', cell: (t) => <Time value={t.created_at} /> },
        ]}
      />
    </div>
  );
}
