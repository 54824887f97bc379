import { useId } from 'react';
import { DryRunWould } from '../kit/DryRunWould';
import { ShowAsCode } from '../kit/ShowAsCode';
import { isObject } from './events';
import { toActionCall } from './tool-call';
import type { Entry } from './transcript';

type ToolEntry = Extract<Entry, { kind: 'tool' }>;

/** The server's dry run of the proposal: a route's dry-run report, or its note that it has none. */
function DryRun({ report }: { report: unknown }) {
  if (isObject(report) && isObject(report.would) && typeof report.would.status === 'number')
    return <DryRunWould would={{ status: report.would.status, body: report.would.body }} />;
  const note = isObject(report) && typeof report.note === 'string' ? report.note : undefined;
  return (
    <section aria-label="Dry run" className="dry-run">
      <p>{note ?? 'The server reported no dry run for this action.'}</p>
    </section>
  );
}

interface Props {
  entry: ToolEntry;
  /** A turn is running: nothing can be decided until it ends. */
  busy: boolean;
  /** The action being approved or denied just now. */
  deciding: string | null;
  onApprove: (actionId: string) => void;
  onDeny: (actionId: string) => void;
}

/**
 * A write the agent proposed: the tool and its arguments, what the server's dry run says it
 * would do, the same call as curl and MCP, and the user's decision. Nothing runs until Approve.
 */
export function ProposedAction({ entry, busy, deciding, onApprove, onDeny }: Props) {
  const headingId = useId();
  const proposal = entry.proposal;
  if (!proposal) return null;
  const call = toActionCall(entry.tool, entry.arguments);
  const pending = proposal.state === 'pending';
  const working = deciding === proposal.actionId;
  return (
    <section className="agent-proposal" aria-labelledby={headingId}>
      <h3 id={headingId}>
        Proposed action: <code>{entry.tool}</code>
      </h3>
      <p className="muted">Nothing has run. The agent asks you to approve this call.</p>
      <h4>Arguments</h4>
      <pre tabIndex={0}>{JSON.stringify(entry.arguments, null, 2)}</pre>
      <DryRun report={proposal.dryRun} />
      {call ? <ShowAsCode call={call} initiallyOpen /> : null}
      {pending ? (
        <div className="dialog-actions">
          <button
            type="button"
            className="btn btn-secondary"
            aria-disabled={busy || undefined}
            onClick={() => !busy && onDeny(proposal.actionId)}
          >
            {working ? 'Working…' : 'Deny'}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            aria-disabled={busy || undefined}
            onClick={() => !busy && onApprove(proposal.actionId)}
          >
            {working ? 'Working…' : 'Approve'}
          </button>
        </div>
      ) : (
        <p className="agent-decision" role="status">
          {proposal.state === 'approved'
            ? `Approved${entry.result ? `: the server answered ${entry.result.summary}` : '; running…'}`
            : 'Denied: you refused this action, and nothing ran.'}
        </p>
      )}
    </section>
  );
}
