import type { UseQueryResult } from '@tanstack/react-query';
import type { Page } from '../api/client';
import { ConfirmAction } from '../kit/ConfirmAction';
import { ErrorBanner } from '../kit/ErrorDisplay';
import { Time } from '../kit/format';
import type { Conversation } from './agent-api';

interface Props {
  list: UseQueryResult<Page<Conversation>>;
  current: string | undefined;
  onOpen: (id: string) => void;
  onDeleted: (id: string) => void;
}

/** The user's own past conversations, newest first: open one to read and continue it, or delete it. */
export function Conversations({ list, current, onOpen, onDeleted }: Props) {
  if (list.isPending) return <p role="status">Loading…</p>;
  if (list.error) return <ErrorBanner error={list.error} title="The conversations could not be read" />;
  const items = list.data.items;
  return (
    <section className="agent-conversations" aria-labelledby="agent-conversations-title">
      <h3 id="agent-conversations-title">Your conversations</h3>
      {items.length === 0 ? <p className="muted">None yet.</p> : null}
      <ul>
        {items.map((c) => (
          <li key={c.id} aria-label={c.title || c.id}>
            <div>
              <button
                type="button"
                className="link-button"
                aria-current={c.id === current || undefined}
                onClick={() => onOpen(c.id)}
              >
                {c.title || c.id}
              </button>
              <br />
              <span className="muted">
                <Time value={c.updated_at} />
              </span>
            </div>
            <ConfirmAction
              call={{ op: 'deleteAgentConversation', params: { id: c.id } }}
              label="Delete conversation"
              description={`Delete the conversation “${c.title || c.id}” with its messages and proposed actions.`}
              variant="danger"
              invalidate={[['agent', 'conversations']]}
              onDone={() => onDeleted(c.id)}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
