import type { Migration } from '../../../kernel/types.js';

/** Conversations with the in-product agent, their messages, and the writes waiting for consent. */
export const createConversations: Migration = {
  name: '001_conversations',
  async up(db) {
    await db.schema.createTable('agent_conversations', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('subject_id').notNullable();
      t.text('title').notNullable();
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'id']);
      t.index(['tenant_id', 'subject_id', 'id']);
      t.index(['tenant_id', 'updated_at']);
    });
    await db.schema.createTable('agent_messages', (t) => {
      t.text('tenant_id').notNullable();
      t.text('conversation_id').notNullable();
      t.integer('seq').notNullable();
      t.jsonb('message').notNullable();
      t.timestamp('at', { useTz: true, precision: 3 }).notNullable();
      t.primary(['tenant_id', 'conversation_id', 'seq']);
      t.foreign(['tenant_id', 'conversation_id'])
        .references(['tenant_id', 'id'])
        .inTable('agent_conversations')
        .onDelete('CASCADE');
    });
    await db.schema.createTable('agent_actions', (t) => {
      t.text('tenant_id').notNullable();
      t.text('id').notNullable();
      t.text('conversation_id').notNullable();
      t.text('tool_call_id').notNullable();
      t.text('tool').notNullable();
      t.jsonb('arguments').notNullable();
      t.jsonb('dry_run');
      // pending → approved (ran) | denied; only a pending action can be decided, once.
      t.text('state').notNullable();
      t.jsonb('result');
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable();
      t.timestamp('decided_at', { useTz: true, precision: 3 });
      t.primary(['tenant_id', 'id']);
      t.foreign(['tenant_id', 'conversation_id'])
        .references(['tenant_id', 'id'])
        .inTable('agent_conversations')
        .onDelete('CASCADE');
    });
  },
  async down(db) {
    await db.schema.dropTable('agent_actions');
    await db.schema.dropTable('agent_messages');
    await db.schema.dropTable('agent_conversations');
  },
};
