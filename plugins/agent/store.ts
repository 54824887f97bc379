import type { Knex } from 'knex';
import type { ChatMessage } from './assistant/providers/types.js';

/** All SQL of the agent plugin: conversations, their messages and their pending actions. */

export interface ConversationRow {
  tenant_id: string;
  id: string;
  subject_id: string;
  title: string;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface ActionRow {
  tenant_id: string;
  id: string;
  conversation_id: string;
  tool_call_id: string;
  tool: string;
  arguments: Record<string, unknown>;
  dry_run: unknown;
  state: 'pending' | 'approved' | 'denied';
  result: unknown;
  created_at: Date | string;
  decided_at: Date | string | null;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

export function conversationView(row: ConversationRow): Record<string, unknown> {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    title: row.title,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function actionView(row: ActionRow): Record<string, unknown> {
  return {
    id: row.id,
    conversation_id: row.conversation_id,
    tool: row.tool,
    arguments: row.arguments,
    dry_run: row.dry_run,
    state: row.state,
    result: row.result,
    created_at: iso(row.created_at),
    decided_at: iso(row.decided_at),
  };
}

export function createConversationStore(db: Knex | Knex.Transaction) {
  return {
    async create(row: ConversationRow): Promise<void> {
      await db('agent_conversations').insert(row);
    },
    /** The subject's own conversation, or undefined (another user's is as absent as a missing one). */
    async find(tenantId: string, subjectId: string, id: string): Promise<ConversationRow | undefined> {
      return (await db('agent_conversations').where({ tenant_id: tenantId, id, subject_id: subjectId }).first()) as
        | ConversationRow
        | undefined;
    },
    async list(tenantId: string, subjectId: string, fetch: number, afterId?: string): Promise<ConversationRow[]> {
      const query = db('agent_conversations')
        .where({ tenant_id: tenantId, subject_id: subjectId })
        .orderBy('id', 'desc')
        .limit(fetch);
      if (afterId !== undefined) query.andWhere('id', '<', afterId);
      return (await query) as ConversationRow[];
    },
    async remove(tenantId: string, subjectId: string, id: string): Promise<boolean> {
      const removed = await db('agent_conversations')
        .where({ tenant_id: tenantId, id, subject_id: subjectId })
        .delete()
        .returning('id');
      return removed.length > 0;
    },
    async messages(tenantId: string, conversationId: string): Promise<ChatMessage[]> {
      const rows = (await db('agent_messages')
        .select('message')
        .where({ tenant_id: tenantId, conversation_id: conversationId })
        .orderBy('seq')) as Array<{ message: ChatMessage }>;
      return rows.map((r) => r.message);
    },
    /** Appends messages after the conversation's last one and marks it updated. */
    async append(tenantId: string, conversationId: string, messages: readonly ChatMessage[], at: Date): Promise<void> {
      if (messages.length === 0) return;
      await db.transaction(async (trx) => {
        const last = (await trx('agent_messages')
          .where({ tenant_id: tenantId, conversation_id: conversationId })
          .max('seq as seq')
          .first()) as { seq: number | null } | undefined;
        let seq = Number(last?.seq ?? -1);
        await trx('agent_messages').insert(
          messages.map((message) => ({
            tenant_id: tenantId,
            conversation_id: conversationId,
            seq: ++seq,
            message: JSON.stringify(message),
            at,
          })),
        );
        await trx('agent_conversations').where({ tenant_id: tenantId, id: conversationId }).update({ updated_at: at });
      });
    },
    async addAction(row: ActionRow): Promise<void> {
      await db('agent_actions').insert({
        ...row,
        arguments: JSON.stringify(row.arguments),
        dry_run: JSON.stringify(row.dry_run ?? null),
        result: JSON.stringify(row.result ?? null),
      });
    },
    /** The action of one of the subject's conversations. */
    async findAction(tenantId: string, subjectId: string, id: string): Promise<ActionRow | undefined> {
      return (await db('agent_actions as a')
        .join('agent_conversations as c', function on() {
          this.on('c.tenant_id', 'a.tenant_id').andOn('c.id', 'a.conversation_id');
        })
        .select('a.*')
        .where({ 'a.tenant_id': tenantId, 'a.id': id, 'c.subject_id': subjectId })
        .first()) as ActionRow | undefined;
    },
    async actions(tenantId: string, conversationId: string): Promise<ActionRow[]> {
      return (await db('agent_actions')
        .where({ tenant_id: tenantId, conversation_id: conversationId })
        .orderBy('created_at')) as ActionRow[];
    },
    async pendingActions(tenantId: string, conversationId: string): Promise<ActionRow[]> {
      return (await db('agent_actions')
        .where({ tenant_id: tenantId, conversation_id: conversationId, state: 'pending' })
        .orderBy('created_at')) as ActionRow[];
    },
    /** Decides a pending action once: false when it was decided already (a concurrent approve). */
    async decide(
      tenantId: string,
      id: string,
      state: 'approved' | 'denied',
      result: unknown,
      at: Date,
    ): Promise<boolean> {
      const updated = await db('agent_actions')
        .where({ tenant_id: tenantId, id, state: 'pending' })
        .update({ state, result: JSON.stringify(result ?? null), decided_at: at });
      return updated > 0;
    },
    async recordResult(tenantId: string, id: string, result: unknown): Promise<void> {
      await db('agent_actions')
        .where({ tenant_id: tenantId, id })
        .update({ result: JSON.stringify(result ?? null) });
    },
    /** Drops conversations untouched since `before` (the retention setting); returns how many. */
    async purge(before: Date, limit = 500): Promise<number> {
      const ids = db('agent_conversations').select('tenant_id', 'id').where('updated_at', '<', before).limit(limit);
      return db('agent_conversations').whereIn(['tenant_id', 'id'], ids).delete();
    },
  };
}

export type ConversationStore = ReturnType<typeof createConversationStore>;
