import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, unwrapPage } from '../../api/client';
import { ActionButton } from '../../kit/ActionButton';
import { StateBadge, Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { COMPONENT_STATES, componentsRoute } from './routes';
import { useComponentTypes } from './types';

/** Components filtered by state, type and tag (in the URL), with their state and last error. */
export function ComponentsPage() {
  const search = componentsRoute.useSearch();
  const navigate = componentsRoute.useNavigate();
  const types = useComponentTypes();
  const list = useQuery({
    queryKey: ['components', search],
    queryFn: () => unwrapPage(api.GET('/components', { params: { query: { ...search, limit: 50 } } })),
  });
  return (
    <div className="page">
      <div className="page-header">
        <h1>Components</h1>
        <ActionButton
          op="createComponent"
          variant="primary"
          onPress={() => void navigate({ to: '/components/new', search: {} })}
        >
          New component
        </ActionButton>
      </div>
      <div className="toolbar" role="group" aria-label="Filters">
        <div className="field">
          <label htmlFor="f-state">State</label>
          <select
            id="f-state"
            value={search.state ?? ''}
            onChange={(e) =>
              void navigate({
                search: (old) => ({
                  ...old,
                  state: (e.target.value || undefined) as (typeof COMPONENT_STATES)[number] | undefined,
                  cursor: undefined,
                }),
              })
            }
          >
            <option value="">Any</option>
            {COMPONENT_STATES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-type">Type</label>
          <select
            id="f-type"
            value={search.type ?? ''}
            onChange={(e) =>
              void navigate({ search: (old) => ({ ...old, type: e.target.value || undefined, cursor: undefined }) })
            }
          >
            <option value="">Any</option>
            {types.data?.items.map((t) => (
              <option key={t.name}>{t.name}</option>
            ))}
          </select>
        </div>
      </div>
      <PagedTable
        caption="Components"
        rowKey={(c) => c.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={search.cursor}
        onPage={(cursor) => void navigate({ search: (old) => ({ ...old, cursor }) })}
        empty="No component matches."
        columns={[
          {
            header: 'Component',
            cell: (c) => (
              <Link to="/components/$componentId" params={{ componentId: c.id }}>
                {c.name}
              </Link>
            ),
          },
          { header: 'Type', cell: (c) => <code>{c.type}</code> },
          { header: 'State', cell: (c) => <StateBadge state={c.state} /> },
          { header: 'Last error', cell: (c) => c.status.last_error ?? '—' },
          { header: 'Stream', cell: (c) => c.stream ?? '—' },
          { header: 'Updated', cell: (c) => <Time value={c.updated_at} /> },
        ]}
      />
    </div>
  );
}
