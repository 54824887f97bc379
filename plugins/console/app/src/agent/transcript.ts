import type { ApiError } from '../api/errors';
import type { Conversation, ProposedActionRow } from './agent-api';
import { type AgentEvent, isObject, type JsonObject } from './events';

/** A write the agent proposed, waiting for the user (or decided by them). */
export interface Proposal {
  actionId: string;
  dryRun: unknown;
  state: 'pending' | 'approved' | 'denied';
}

/** What the panel shows, in order: the user's words, the agent's, its tool calls and their results. */
export type Entry =
  | { kind: 'user'; key: string; text: string }
  | { kind: 'assistant'; key: string; text: string }
  | {
      kind: 'tool';
      key: string;
      id: string;
      tool: string;
      arguments: JsonObject;
      result?: { status: number; summary: string };
      proposal?: Proposal;
    }
  | { kind: 'error'; key: string; error: ApiError };

let keys = 0;
const nextKey = (): string => `e${++keys}`;

export function userEntry(text: string): Entry {
  return { kind: 'user', key: nextKey(), text };
}

export function errorEntry(error: ApiError): Entry {
  return { kind: 'error', key: nextKey(), error };
}

/** The transcript after one more event of a turn. Text deltas extend the agent's current words. */
export function applyEvent(entries: Entry[], event: AgentEvent): Entry[] {
  const last = entries.at(-1);
  switch (event.event) {
    case 'message':
      if (last?.kind === 'assistant') return [...entries.slice(0, -1), { ...last, text: last.text + event.delta }];
      return [...entries, { kind: 'assistant', key: nextKey(), text: event.delta }];
    case 'tool_call':
      return [...entries, { kind: 'tool', key: nextKey(), id: event.id, tool: event.tool, arguments: event.arguments }];
    case 'tool_result':
      return entries.map((e) =>
        e.kind === 'tool' && e.id === event.id ? { ...e, result: { status: event.status, summary: event.summary } } : e,
      );
    case 'confirmation_required': {
      // The proposal belongs to the tool call just announced for the same tool (it has no result).
      const index = entries.findLastIndex((e) => e.kind === 'tool' && e.tool === event.tool && !e.result);
      const proposal: Proposal = { actionId: event.actionId, dryRun: event.dryRun, state: 'pending' };
      if (index < 0)
        return [
          ...entries,
          { kind: 'tool', key: nextKey(), id: event.actionId, tool: event.tool, arguments: event.arguments, proposal },
        ];
      return entries.map((e, i) => (i === index && e.kind === 'tool' ? { ...e, proposal } : e));
    }
    case 'error':
      return [...entries, errorEntry(event.error)];
    case 'opened':
    case 'done':
      return entries;
  }
}

/** Marks a proposal decided before the server's answer arrives (approve or deny was accepted). */
export function decide(entries: Entry[], actionId: string, state: Proposal['state']): Entry[] {
  return entries.map((e) =>
    e.kind === 'tool' && e.proposal?.actionId === actionId ? { ...e, proposal: { ...e.proposal, state } } : e,
  );
}

/** A stored tool result (`{"kind":"api_result",...,"status":N,...}`) as a status and a short summary. */
function storedResult(content: string): { status: number; summary: string } {
  const status = Number(/"status":(\d{3})/.exec(content)?.[1] ?? 0);
  const summary = content.length > 160 ? `${content.slice(0, 160)}…` : content;
  return { status, summary };
}

/** JSON with object keys sorted: stored arguments may come back with their keys reordered (jsonb). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const sameArguments = (a: JsonObject, b: unknown): boolean => canonical(a) === canonical(b);

/** A past conversation's stored messages and actions, as the panel shows a live one. */
export function fromConversation(conversation: Conversation): Entry[] {
  const entries: Entry[] = [];
  const actions: ProposedActionRow[] = [...(conversation.actions ?? [])];
  for (const message of conversation.messages ?? []) {
    const m: JsonObject = isObject(message) ? message : {};
    const content = typeof m.content === 'string' ? m.content : '';
    if (m.role === 'user') entries.push(userEntry(content));
    else if (m.role === 'assistant') {
      if (content) entries.push({ kind: 'assistant', key: nextKey(), text: content });
      for (const call of Array.isArray(m.tool_calls) ? m.tool_calls.filter(isObject) : []) {
        const tool = typeof call.name === 'string' ? call.name : '';
        const args = isObject(call.arguments) ? call.arguments : {};
        const at = actions.findIndex((a) => a.tool === tool && sameArguments(args, a.arguments));
        const action = at >= 0 ? actions.splice(at, 1)[0] : undefined;
        entries.push({
          kind: 'tool',
          key: nextKey(),
          id: typeof call.id === 'string' ? call.id : nextKey(),
          tool,
          arguments: args,
          ...(action ? { proposal: { actionId: action.id, dryRun: action.dry_run, state: action.state } } : {}),
        });
      }
    } else if (m.role === 'tool') {
      const id = m.tool_call_id;
      const result = storedResult(content);
      const index = entries.findIndex((e) => e.kind === 'tool' && e.id === id);
      const found = entries[index];
      if (found?.kind === 'tool') entries[index] = { ...found, result };
    }
  }
  return entries;
}
