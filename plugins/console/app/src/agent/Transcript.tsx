import { useEffect, useRef } from 'react';
import { ErrorBanner } from '../kit/ErrorDisplay';
import { ProposedAction } from './ProposedAction';
import type { Entry } from './transcript';

interface Props {
  entries: Entry[];
  busy: boolean;
  deciding: string | null;
  onApprove: (actionId: string) => void;
  onDeny: (actionId: string) => void;
}

/** One tool call in a line: the tool, its arguments, and what it came to (once it has). */
function ToolLine({ entry }: { entry: Extract<Entry, { kind: 'tool' }> }) {
  const args = JSON.stringify(entry.arguments);
  return (
    <div className="agent-tool">
      <span className="agent-tool-name">
        Tool call <code>{entry.tool}</code>
      </span>{' '}
      <code className="agent-tool-args">{args.length > 120 ? `${args.slice(0, 120)}…` : args}</code>
      <div className="agent-tool-result">
        {entry.result ? (
          <>
            Result:{' '}
            <span className={entry.result.status >= 400 ? 'agent-failed' : undefined}>{entry.result.summary}</span>
          </>
        ) : entry.proposal ? null : (
          <span className="muted">running…</span>
        )}
      </div>
    </div>
  );
}

/**
 * The conversation as it happens. It is a polite live log: a screen reader reads the agent's
 * words and each tool result as they arrive, without interrupting.
 */
export function Transcript({ entries, busy, deciding, onApprove, onDeny }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  // Keeps the newest words in view while they stream (every render follows a change of the
  // transcript); only the transcript scrolls, never the page behind it.
  useEffect(() => {
    const box = scroller.current;
    if (box) box.scrollTop = box.scrollHeight;
  });
  return (
    <div className="agent-transcript" ref={scroller}>
      {entries.length === 0 ? (
        <p className="muted">
          Ask about this tenant’s streams, workflows, components and more. The agent uses your permissions; every change
          it proposes waits for your approval.
        </p>
      ) : null}
      <div role="log" aria-live="polite" aria-label="Conversation with the agent" aria-busy={busy}>
        <ol className="agent-log">
          {entries.map((entry) => (
            <li key={entry.key} className={`agent-entry agent-entry-${entry.kind}`}>
              {entry.kind === 'user' ? (
                <>
                  <span className="agent-who">You</span>
                  <p>{entry.text}</p>
                </>
              ) : entry.kind === 'assistant' ? (
                <>
                  <span className="agent-who">Agent</span>
                  <p className="agent-text">{entry.text}</p>
                </>
              ) : entry.kind === 'tool' ? (
                <>
                  <ToolLine entry={entry} />
                  <ProposedAction entry={entry} busy={busy} deciding={deciding} onApprove={onApprove} onDeny={onDeny} />
                </>
              ) : (
                <ErrorBanner
                  error={entry.error}
                  title="The turn stopped"
                  hint="What happened until then is kept; send a message to go on."
                />
              )}
            </li>
          ))}
        </ol>
      </div>
      {busy ? (
        <p className="muted" aria-hidden="true">
          The agent is answering…
        </p>
      ) : null}
    </div>
  );
}
