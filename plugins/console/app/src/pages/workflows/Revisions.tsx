import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { Time } from '../../kit/format';
import { type DiffLine, lineDiff } from '../../kit/line-diff';

function lineClass(line: string): string | undefined {
  if (line.startsWith('+') && !line.startsWith('+++')) return 'diff-add';
  if (line.startsWith('-') && !line.startsWith('---')) return 'diff-del';
  return undefined;
}

const MARK: Record<DiffLine['kind'], string> = { same: ' ', removed: '-', added: '+' };
const CLASS: Record<DiffLine['kind'], string | undefined> = {
  same: undefined,
  removed: 'diff-del',
  added: 'diff-add',
};

interface Change {
  path: string;
  from?: unknown;
  to?: unknown;
}

/** A script (a `source` setting) changed between the revisions: its own line diff, the way code is reviewed. */
function ScriptDiff({ change, from, to }: { change: Change; from: number; to: number }) {
  const before = typeof change.from === 'string' ? change.from : '';
  const after = typeof change.to === 'string' ? change.to : '';
  return (
    <pre tabIndex={0} role="region" aria-label={`Script ${change.path} from revision ${from} to ${to}`}>
      {lineDiff(before, after).map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: positional lines
        <span key={i} className={CLASS[line.kind]}>
          {MARK[line.kind]} {line.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

/** A workflow's revisions, and a line diff (scripts included) between any two. */
export function Revisions({ workflowId, latest }: { workflowId: string; latest: number }) {
  const revisions = useQuery({
    queryKey: ['workflows', workflowId, 'revisions'],
    queryFn: () => unwrap(api.GET('/workflows/{id}/revisions', { params: { path: { id: workflowId } } })),
  });
  const [revision, setRevision] = useState(latest);
  const [against, setAgainst] = useState(Math.max(1, latest - 1));
  const diff = useQuery({
    queryKey: ['workflows', workflowId, 'diff', revision, against],
    queryFn: () =>
      unwrap(
        api.GET('/workflows/{id}/revisions/{revision}/diff', {
          params: { path: { id: workflowId, revision }, query: { against } },
        }),
      ),
    enabled: revision !== against,
  });
  const numbers = revisions.data?.items.map((r) => r.revision) ?? [latest];
  return (
    <section aria-label="Revisions">
      <ErrorBanner error={revisions.error} />
      <ol className="timeline">
        {revisions.data?.items.map((r) => (
          <li key={r.revision}>
            Revision {r.revision}, <Time value={r.created_at} /> by {r.created_by ?? 'unknown'}
          </li>
        ))}
      </ol>
      <div className="toolbar">
        <div className="field">
          <label htmlFor="diff-from">Compare revision</label>
          <select id="diff-from" value={revision} onChange={(e) => setRevision(Number(e.target.value))}>
            {numbers.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="diff-against">against</label>
          <select id="diff-against" value={against} onChange={(e) => setAgainst(Number(e.target.value))}>
            {numbers.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
      </div>
      {revision === against ? <p className="muted">Choose two different revisions to see what changed.</p> : null}
      <ErrorBanner error={diff.error} />
      {diff.data ? (
        <pre tabIndex={0} role="region" aria-label={`Changes from revision ${against} to ${revision}`}>
          {diff.data.text.length === 0
            ? 'No differences.'
            : diff.data.text.map((line, i) => (
                // Lines of a diff have no identity beyond their position.
                // biome-ignore lint/suspicious/noArrayIndexKey: positional lines
                <span key={i} className={lineClass(line)}>
                  {line}
                  {'\n'}
                </span>
              ))}
        </pre>
      ) : null}
      {diff.data?.changes
        .filter((c) => /\/source$/.test(c.path) && (typeof c.from === 'string' || typeof c.to === 'string'))
        .map((c) => (
          <ScriptDiff key={c.path} change={c} from={against} to={revision} />
        ))}
    </section>
  );
}
