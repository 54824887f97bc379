import { useQuery } from '@tanstack/react-query';
import { api, unwrapPage } from '../api/client';
import { useAllowed } from '../auth/session';
import { ErrorBanner } from './ErrorDisplay';
import { Time } from './format';

/** A resource's slice of the audit trail (GET /audit?resource=…): who changed it, when, and how it ended. */
export function HistoryTab({ resource }: { resource: string }) {
  const { allowed, permission } = useAllowed('listAudit');
  const history = useQuery({
    queryKey: ['audit', 'resource', resource],
    queryFn: () => unwrapPage(api.GET('/audit', { params: { query: { resource, limit: 50 } } })),
    enabled: allowed,
  });
  if (!allowed) return <p className="muted">The history needs the permission {permission}.</p>;
  return (
    <section aria-label="History">
      <ErrorBanner error={history.error} />
      {history.data && history.data.items.length === 0 ? (
        <p className="muted">No audit records name this resource yet.</p>
      ) : null}
      <ol className="timeline">
        {history.data?.items.map((record) => (
          <li key={record.id}>
            <Time value={record.time} /> <strong>{record.operation}</strong> by{' '}
            {record.actor.actor_email ?? record.actor.actor_id ?? record.actor.subject_id ?? 'unknown'} —{' '}
            <span className={`outcome outcome-${record.outcome}`}>{record.outcome}</span> ({record.status})
          </li>
        ))}
      </ol>
    </section>
  );
}
