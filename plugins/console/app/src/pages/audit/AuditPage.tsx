import '../pages.css';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId } from 'react';
import { api, unwrap, unwrapPage } from '../../api/client';
import type { components } from '../../api/schema';
import { useMe } from '../../auth/session';
import { ActionButton } from '../../kit/ActionButton';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { auditRoute } from './routes';

type AuditRecord = components['schemas']['audit.AuditRecord'];
type VerifyReport = components['schemas']['audit.VerifyReport'];
type Search = ReturnType<typeof auditRoute.useSearch>;

const TEXT_FILTERS = [
  { key: 'actor', label: 'Actor' },
  { key: 'operation', label: 'Operation' },
  { key: 'status', label: 'Status' },
  { key: 'resource', label: 'Resource' },
] as const;

/** The verifier's answer, said in words: valid, or where the chain first breaks and how. */
function VerifyResult({ report }: { report: VerifyReport }) {
  return (
    <section
      role="status"
      aria-label="Chain verification"
      className={`card ${report.valid ? 'verify-ok' : 'verify-broken'}`}
    >
      <h2>{report.valid ? 'The audit chain is intact' : 'The audit chain is broken'}</h2>
      <dl className="kv">
        <dt>Tenant</dt>
        <dd>{report.tenant_id}</dd>
        <dt>Records checked</dt>
        <dd>{report.records}</dd>
        <dt>Not yet sealed</dt>
        <dd>{report.unsealed}</dd>
        <dt>Head</dt>
        <dd>{report.head ? <code>{`#${report.head.seq} ${report.head.hash}`}</code> : '—'}</dd>
        {report.first_broken ? (
          <>
            <dt>First break</dt>
            <dd>
              record #{report.first_broken.seq} ({report.first_broken.problem}): expected{' '}
              <code>{report.first_broken.expected}</code>, found <code>{report.first_broken.found}</code>
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

function RecordDetail({ record }: { record: AuditRecord }) {
  return (
    <section className="card" aria-labelledby="record-title">
      <h2 id="record-title">
        Record #{record.seq}: {record.operation}
      </h2>
      <dl className="kv">
        <dt>Time</dt>
        <dd>
          <Time value={record.time} />
        </dd>
        <dt>Call</dt>
        <dd>
          <code>
            {record.method} {record.path}
          </code>{' '}
          → {record.status} ({record.outcome}
          {record.error_code ? `, ${record.error_code}` : ''})
        </dd>
        <dt>Actor</dt>
        <dd>
          {record.actor.subject_id ?? '—'} ({record.actor.credential_kind}, {record.actor.actor_type})
        </dd>
        <dt>Resource</dt>
        <dd>{record.resource_id ?? '—'}</dd>
        <dt>Request</dt>
        <dd>
          <code>{record.request_id}</code>
        </dd>
        <dt>Hash</dt>
        <dd>
          <code>{record.hash}</code>
        </dd>
        <dt>Previous hash</dt>
        <dd>
          <code>{record.prev_hash}</code>
        </dd>
      </dl>
      <h3>Fields and detail</h3>
      <pre className="code wrap">{JSON.stringify({ fields: record.fields, detail: record.detail }, null, 2)}</pre>
    </section>
  );
}

export function AuditPage() {
  const search = auditRoute.useSearch();
  const navigate = useNavigate({ from: auditRoute.fullPath });
  const me = useMe();
  const ids = { since: useId(), until: useId() };
  const account = search.scope === 'account';
  const { scope: _scope, record: selected, ...filters } = search;
  const list = useQuery({
    queryKey: ['audit', 'list', search.scope, filters],
    queryFn: () =>
      unwrapPage(
        account
          ? api.GET('/audit/account', { params: { query: { ...filters, limit: 50 } } })
          : api.GET('/audit', { params: { query: { ...filters, limit: 50 } } }),
      ),
  });
  const verify = useMutation({
    mutationFn: () =>
      unwrap(account ? api.GET('/audit/account/verify') : api.GET('/audit/verify')) as Promise<VerifyReport>,
  });
  const set = (patch: Partial<Search>) => navigate({ search: (s) => ({ ...s, ...patch, cursor: undefined }) });
  const record = list.data?.items.find((r) => r.id === selected);
  return (
    <div className="page">
      <header className="page-header">
        <h1>Audit trail</h1>
        <ActionButton
          op={account ? 'verifyAccountAudit' : 'verifyAudit'}
          variant="primary"
          busy={verify.isPending}
          onPress={() => verify.mutate()}
        >
          Verify the chain
        </ActionButton>
      </header>
      {me?.account_admin ? (
        <nav className="tabs" aria-label="Audit scope">
          <Link to="." search={{}} aria-current={!account ? 'page' : undefined}>
            This tenant
          </Link>
          <Link to="." search={{ scope: 'account' }} aria-current={account ? 'page' : undefined}>
            Account (tenant management)
          </Link>
        </nav>
      ) : null}
      <ErrorBanner error={verify.error} title="The verification did not run" />
      {verify.data ? <VerifyResult report={verify.data} /> : null}
      <form className="toolbar" aria-label="Filter audit records" onSubmit={(e) => e.preventDefault()}>
        {TEXT_FILTERS.map((f) => (
          <FilterInput
            key={f.key}
            label={f.label}
            value={search[f.key]}
            onChange={(value) => set({ [f.key]: value })}
          />
        ))}
        <div className="field">
          <label htmlFor={ids.since}>Since (ISO time)</label>
          <input
            id={ids.since}
            defaultValue={search.since ?? ''}
            placeholder="2026-01-01T00:00:00Z"
            onBlur={(e) => set({ since: e.target.value || undefined })}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.until}>Until (ISO time)</label>
          <input
            id={ids.until}
            defaultValue={search.until ?? ''}
            onBlur={(e) => set({ until: e.target.value || undefined })}
          />
        </div>
      </form>
      {record ? <RecordDetail record={record} /> : null}
      <PagedTable<AuditRecord>
        caption="Audit records"
        rowKey={(r) => r.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={search.cursor}
        onPage={(cursor) => navigate({ search: (s) => ({ ...s, cursor }) })}
        empty="No records match."
        columns={[
          { header: 'Seq', cell: (r) => r.seq, numeric: true },
          { header: 'Time', cell: (r) => <Time value={r.time} /> },
          {
            header: 'Operation',
            cell: (r) => (
              <Link
                to="."
                search={(s: Search) => ({ ...s, record: r.id })}
                aria-label={`Record ${r.seq}: ${r.operation}`}
              >
                {r.operation}
              </Link>
            ),
          },
          { header: 'Actor', cell: (r) => r.actor.subject_id ?? '—' },
          { header: 'Resource', cell: (r) => r.resource_id ?? '—' },
          { header: 'Status', cell: (r) => `${r.status} ${r.outcome}`, numeric: true },
        ]}
      />
    </div>
  );
}

function FilterInput({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        defaultValue={value ?? ''}
        onBlur={(e) => onChange(e.target.value || undefined)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onChange(e.currentTarget.value || undefined);
        }}
      />
    </div>
  );
}
