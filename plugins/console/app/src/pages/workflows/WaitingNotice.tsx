import { Link } from '@tanstack/react-router';
import type { Workflow } from './types';

/**
 * Why a running workflow processes nothing, as the API says it: the stopped components it waits
 * for (its messages are held, not lost) or the error of the worker's last failed attempt.
 */
export function WaitingNotice({ workflow }: { workflow: Workflow }) {
  const { waiting, last_error: lastError } = workflow;
  if (!waiting && !lastError) return null;
  return (
    <div role="status" aria-label="Why the workflow waits" className="notice notice-warn">
      {waiting ? (
        <p>
          <span className="badge badge-waiting">waiting</span> Holding its messages until{' '}
          {waiting.components.map((id, i) => (
            <span key={id}>
              {i > 0 ? ', ' : null}
              <Link to="/components/$componentId" params={{ componentId: id }}>
                {id}
              </Link>
            </span>
          ))}{' '}
          {waiting.components.length === 1 ? 'runs' : 'run'} again: the messages stay in the input stream (the lag shows
          them) and go through once, in order, after a start.
        </p>
      ) : null}
      {lastError ? (
        <p>
          <span className="badge badge-failed">error</span> The worker's last attempt failed: {lastError}
        </p>
      ) : null}
    </div>
  );
}
