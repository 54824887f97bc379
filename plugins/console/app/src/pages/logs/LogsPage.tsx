import '../pages.css';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId } from 'react';
import { api, unwrapPage } from '../../api/client';
import type { components } from '../../api/schema';
import { StateBadge, Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { LEVELS, logsRoute } from './routes';

type LogRecord = components['schemas']['logs.LogRecord'];
type Search = ReturnType<typeof logsRoute.useSearch>;

/** A datetime-local value (the reader's clock) as an ISO instant, and back. */
function toIso(local: string): string | undefined {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
function toLocal(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function LogsPage() {
  const search = logsRoute.useSearch();
  const navigate = useNavigate({ from: logsRoute.fullPath });
  const ids = { level: useId(), source: useId(), since: useId(), until: useId(), live: useId() };
  const live = search.live === 'on';
  const { live: _live, ...filters } = search;
  const list = useQuery({
    queryKey: ['logs', filters],
    queryFn: () => unwrapPage(api.GET('/logs', { params: { query: { ...filters, limit: 100 } } })),
    // Live: the first page is read again every two seconds (newest first); paging back stops it.
    refetchInterval: live && !search.cursor ? 2_000 : false,
  });
  const set = (patch: Partial<Search>) => navigate({ search: (s) => ({ ...s, ...patch, cursor: undefined }) });
  return (
    <div className="page">
      <header className="page-header">
        <h1>Logs</h1>
      </header>
      <form className="toolbar" aria-label="Filter logs" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={ids.level}>Level</label>
          <select
            id={ids.level}
            value={search.level ?? ''}
            onChange={(e) => set({ level: (e.target.value || undefined) as Search['level'] })}
          >
            <option value="">Any</option>
            {LEVELS.map((l) => (
              <option key={l}>{l}</option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.source}>Source</label>
          <input
            id={ids.source}
            defaultValue={search.source ?? ''}
            onBlur={(e) => set({ source: e.target.value || undefined })}
            onKeyDown={(e) => e.key === 'Enter' && set({ source: e.currentTarget.value || undefined })}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.since}>Since</label>
          <input
            id={ids.since}
            type="datetime-local"
            value={toLocal(search.since)}
            onChange={(e) => set({ since: toIso(e.target.value) })}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.until}>Until</label>
          <input
            id={ids.until}
            type="datetime-local"
            value={toLocal(search.until)}
            onChange={(e) => set({ until: toIso(e.target.value) })}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.live}>
            <input
              id={ids.live}
              type="checkbox"
              checked={live}
              onChange={(e) => set({ live: e.target.checked ? 'on' : undefined })}
            />{' '}
            Live (refresh every 2 s)
          </label>
        </div>
      </form>
      <p className="muted" role="status">
        {live
          ? list.isFetching
            ? 'Live: reading…'
            : `Live: updated ${new Date(list.dataUpdatedAt).toLocaleTimeString()}`
          : ''}
      </p>
      <PagedTable<LogRecord>
        caption="Log records"
        rowKey={(r) => String(r.seq)}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={search.cursor}
        onPage={(cursor) => navigate({ search: (s) => ({ ...s, cursor }) })}
        empty="No log records match."
        columns={[
          { header: 'Time', cell: (r) => <Time value={r.time} /> },
          { header: 'Level', cell: (r) => <StateBadge state={r.level} /> },
          { header: 'Source', cell: (r) => <code>{r.source}</code> },
          { header: 'Message', cell: (r) => r.message },
          {
            header: 'Fields',
            cell: (r) => (Object.keys(r.fields).length ? <code>{JSON.stringify(r.fields)}</code> : '—'),
          },
        ]}
      />
    </div>
  );
}
