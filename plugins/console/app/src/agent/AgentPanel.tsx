import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { ApiError, isApiError } from '../api/errors';
import { ErrorBanner } from '../kit/ErrorDisplay';
import { getConversation, isNotConfigured, listConversations, runTurn, type TurnStart, TurnRefused } from './agent-api';
import { Conversations } from './Conversations';
import { NotConfigured } from './NotConfigured';
import { Transcript } from './Transcript';
import { applyEvent, decide, type Entry, fromConversation, userEntry } from './transcript';
import './agent.css';

export const CONVERSATIONS_KEY = ['agent', 'conversations'];

/** What to do about a turn the server refused; undefined keeps the console's generic advice. */
function refusalHint(error: unknown, retryAfter: number | undefined): string | undefined {
  const wait = retryAfter ? ` Try again in ${retryAfter} s.` : ' Try again in a moment.';
  if (!isApiError(error)) return undefined;
  if (error.status === 429) return `You sent many turns in a short time.${wait}`;
  if (error.status === 503) return `The model provider did not answer.${wait}`;
  if (error.status === 409) return 'Approve or deny the proposed action first, or start a new conversation.';
  return undefined;
}

interface Props {
  open: boolean;
  onClose: () => void;
}

/**
 * The in-product agent beside every page: a conversation that streams the agent's words, its tool
 * calls and their results, and stops at each write it proposes until the user approves or denies
 * it. The panel stays mounted while closed, so a conversation survives moving between pages.
 */
export default function AgentPanel({ open, onClose }: Props) {
  const queryClient = useQueryClient();
  const [view, setView] = useState<'chat' | 'list'>('chat');
  const [entries, setEntries] = useState<Entry[]>([]);
  const [conversationId, setConversationId] = useState<string | undefined>();
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const [deciding, setDeciding] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<unknown>(null);
  const [notConfigured, setNotConfigured] = useState(false);
  const turn = useRef<AbortController | null>(null);
  const messageField = useRef<HTMLTextAreaElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  // Opening moves focus into the panel: to the message field, or the heading when there is none.
  useEffect(() => {
    if (!open) return;
    (messageField.current ?? heading.current)?.focus();
  }, [open]);

  useEffect(() => () => turn.current?.abort(), []);

  const refused = (err: unknown): void => {
    if (isNotConfigured(err)) setNotConfigured(true);
    else setRefusal(err);
  };

  /** Runs one turn; false when the server refused it before it began (not when the user stopped it). */
  async function run(start: TurnStart, before: () => void): Promise<boolean> {
    const controller = new AbortController();
    turn.current = controller;
    setBusy(true);
    setRefusal(null);
    let started = false;
    try {
      for await (const event of runTurn(start, controller.signal)) {
        if (!started) {
          started = true;
          before();
        }
        // Known as soon as the turn is accepted, so a stopped turn's conversation goes on.
        if (event.event === 'opened' || event.event === 'done') setConversationId(event.conversationId);
        setEntries((current) => applyEvent(current, event));
      }
    } catch (err) {
      if (!controller.signal.aborted) {
        if (started) {
          const error = isApiError(err) ? err : new ApiError(0, 'stream_broken', 'The answer stopped arriving.');
          setEntries((current) => applyEvent(current, { event: 'error', error }));
        } else refused(err);
      }
    } finally {
      if (turn.current === controller) turn.current = null;
      setBusy(false);
      setDeciding(null);
      void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
    }
    return started || controller.signal.aborted;
  }

  const send = (event?: { preventDefault(): void }): void => {
    event?.preventDefault();
    const message = draft.trim();
    if (!message || busy) return;
    const entry = userEntry(message);
    setEntries((current) => [...current, entry]);
    setDraft('');
    void run({ kind: 'chat', message, ...(conversationId ? { conversationId } : {}) }, () => undefined).then(
      (started) => {
        // A refused message was not sent: it leaves the transcript and goes back into the field.
        if (!started) {
          setEntries((current) => current.filter((e) => e !== entry));
          setDraft((current) => current || message);
        }
        messageField.current?.focus();
      },
    );
  };

  const decideAction = (actionId: string, approve: boolean): void => {
    setDeciding(actionId);
    void run(approve ? { kind: 'approve', actionId } : { kind: 'deny', actionId }, () =>
      setEntries((current) => decide(current, actionId, approve ? 'approved' : 'denied')),
    );
  };

  const clear = (): void => {
    turn.current?.abort();
    setEntries([]);
    setConversationId(undefined);
    setRefusal(null);
  };

  const startNew = (): void => {
    clear();
    setView('chat');
    // The field is rendered again by the switch to the chat view; focus it once it is.
    requestAnimationFrame(() => messageField.current?.focus());
  };

  const openConversation = async (id: string): Promise<void> => {
    turn.current?.abort();
    setRefusal(null);
    try {
      const conversation = await getConversation(id);
      setEntries(fromConversation(conversation));
      setConversationId(conversation.id);
      setView('chat');
    } catch (err) {
      refused(err);
    }
  };

  // The list is read when the panel opens: a deployment without a provider says so at once.
  const list = useQuery({
    queryKey: CONVERSATIONS_KEY,
    queryFn: listConversations,
    enabled: open,
    retry: false,
  });
  const unconfigured = notConfigured || isNotConfigured(list.error);

  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.preventDefault();
      onClose();
    }
  };

  const retryAfter = refusal instanceof TurnRefused ? refusal.retryAfter : undefined;

  return (
    <aside
      id="agent-panel"
      className="agent-panel"
      aria-labelledby="agent-panel-title"
      hidden={!open}
      onKeyDown={onKeyDown}
    >
      <div className="agent-panel-header">
        <h2 id="agent-panel-title" ref={heading} tabIndex={-1}>
          Agent
        </h2>
        <div className="agent-panel-tools">
          {!unconfigured && (
            <>
              <button
                type="button"
                className="btn btn-secondary"
                aria-pressed={view === 'list'}
                onClick={() => setView(view === 'list' ? 'chat' : 'list')}
              >
                Conversations
              </button>
              <button type="button" className="btn btn-secondary" onClick={startNew}>
                New conversation
              </button>
            </>
          )}
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Close agent
          </button>
        </div>
      </div>
      {unconfigured ? (
        <NotConfigured />
      ) : view === 'list' ? (
        <Conversations
          list={list}
          current={conversationId}
          onOpen={(id) => void openConversation(id)}
          onDeleted={(id) => id === conversationId && clear()}
        />
      ) : (
        <>
          <Transcript
            entries={entries}
            busy={busy}
            deciding={deciding}
            onApprove={(id) => decideAction(id, true)}
            onDeny={(id) => decideAction(id, false)}
          />
          {refusal ? (
            <div className="agent-refusal">
              <ErrorBanner error={refusal} title="The agent could not answer" hint={refusalHint(refusal, retryAfter)} />
            </div>
          ) : null}
          <form className="agent-composer" onSubmit={send}>
            <label htmlFor="agent-message">Message to the agent</label>
            <textarea
              id="agent-message"
              ref={messageField}
              rows={3}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey) send(e);
              }}
              aria-describedby="agent-message-hint"
            />
            <span id="agent-message-hint" className="hint">
              Enter sends; Shift+Enter starts a new line. Every change it proposes waits for your approval.
            </span>
            <div className="agent-composer-actions">
              {busy ? (
                <button type="button" className="btn btn-secondary" onClick={() => turn.current?.abort()}>
                  Stop
                </button>
              ) : null}
              <button type="submit" className="btn btn-primary" aria-disabled={busy || undefined}>
                {busy ? 'Answering…' : 'Send'}
              </button>
            </div>
          </form>
        </>
      )}
    </aside>
  );
}
