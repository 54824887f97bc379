import type { Knex } from 'knex';
import { isUniqueViolation } from '../../kernel/plugin/api.js';
import { ApiError } from '../../kernel/errors.js';
import { variableReferences } from '../variables/contract.js';

export type ComponentState = 'stopped' | 'running' | 'failed';
export type DesiredState = 'stopped' | 'running';

/** A component as the API shows it: secrets are absent from `config`, `secrets_set` names those stored. */
export interface Component {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  type: string;
  stream: string | null;
  state: ComponentState;
  desired_state: DesiredState;
  status: { state: ComponentState; last_error: string | null; since: string; next_attempt_at?: string };
  tags: string[];
  config: Record<string, unknown>;
  secrets_set: string[];
  revision: number;
  created_at: string;
  updated_at: string;
}

/** A row as stored, secrets still sealed: the fields the API shows as they are, plus the stored-only ones. */
export interface ComponentRow
  extends Pick<
    Component,
    | 'id'
    | 'tenant_id'
    | 'name'
    | 'description'
    | 'type'
    | 'stream'
    | 'state'
    | 'desired_state'
    | 'tags'
    | 'config'
    | 'revision'
  > {
  last_error: string | null;
  state_since: Date | string;
  next_attempt_at: Date | string | null;
  secrets: string | null;
  secret_fields: string[];
  generation: number;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface NewComponent {
  name: string;
  description?: string;
  tags?: string[];
  type: string;
  stream: string | null;
  /** Config without its secrets. */
  config: Record<string, unknown>;
  secrets: string | null;
  secret_fields: string[];
  /** Made running (processors and sinks: usable at once); otherwise stopped until started (sources). */
  running?: boolean;
}

export interface ComponentChanges {
  name?: string;
  description?: string;
  tags?: string[];
  stream?: string | null;
  config?: Record<string, unknown>;
  secrets?: string | null;
  secret_fields?: string[];
}

export interface ListFilter {
  state?: string;
  tag?: string;
  type?: string;
  afterId?: string;
  fetch: number;
}

const COLUMNS = [
  'id',
  'tenant_id',
  'name',
  'description',
  'type',
  'stream',
  'state',
  'desired_state',
  'last_error',
  'state_since',
  'next_attempt_at',
  'tags',
  'config',
  'secrets',
  'secret_fields',
  'generation',
  'revision',
  'created_at',
  'updated_at',
];

/** What the API shows of a component (`toComponent`): a list reads no sealed secrets and no supervisor generation. */
export const VIEW_COLUMNS = COLUMNS.filter((c) => c !== 'secrets' && c !== 'generation');

/** A row as a list reads it. */
export type ComponentView = Omit<ComponentRow, 'secrets' | 'generation'>;

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function toComponent(row: ComponentView): Component {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    name: row.name,
    description: row.description,
    type: row.type,
    stream: row.stream,
    state: row.state,
    desired_state: row.desired_state,
    status: {
      state: row.state,
      last_error: row.last_error,
      since: iso(row.state_since),
      // A failed source: when the supervisor tries it again (backoff 1 s doubling to 60 s).
      ...(row.state === 'failed' && row.next_attempt_at ? { next_attempt_at: iso(row.next_attempt_at) } : {}),
    },
    tags: row.tags,
    config: row.config,
    secrets_set: [...row.secret_fields].sort(),
    revision: row.revision,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The answer for an id taken already (the unique key's). */
export const duplicate = (id: string) =>
  new ApiError('duplicate_identifier', `A component with id "${id}" already exists.`);

/** The components table. Every query is keyed by tenant first (DESIGN.md "Storage"). */
export class ComponentStore {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async list(tenantId: string, filter: ListFilter): Promise<ComponentView[]> {
    const query = this.db('components')
      .select(VIEW_COLUMNS)
      .where({ tenant_id: tenantId })
      .orderBy('id', 'asc')
      .limit(filter.fetch);
    if (filter.state) query.andWhere('state', filter.state);
    if (filter.type) query.andWhere('type', filter.type);
    if (filter.tag) query.andWhereRaw('tags @> ARRAY[?]::text[]', [filter.tag]);
    if (filter.afterId !== undefined) query.andWhere('id', '>', filter.afterId);
    return (await query) as ComponentView[];
  }

  async get(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<ComponentRow | undefined> {
    const query = this.db('components').select(COLUMNS).where({ tenant_id: tenantId, id }).first();
    if (options.forUpdate) query.forUpdate();
    return (await query) as ComponentRow | undefined;
  }

  async insert(tenantId: string, id: string, fields: NewComponent, now: Date): Promise<ComponentRow> {
    try {
      const [row] = (await this.db('components')
        .insert({
          tenant_id: tenantId,
          id,
          name: fields.name,
          description: fields.description ?? '',
          tags: fields.tags ?? [],
          type: fields.type,
          stream: fields.stream,
          config: JSON.stringify(fields.config),
          secrets: fields.secrets,
          secret_fields: fields.secret_fields,
          ...(fields.running ? { state: 'running', desired_state: 'running' } : {}),
          state_since: now,
          created_at: now,
          updated_at: now,
        })
        .returning(COLUMNS)) as ComponentRow[];
      return row as ComponentRow;
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate(id);
      throw err;
    }
  }

  async update(tenantId: string, id: string, changes: ComponentChanges, now: Date): Promise<ComponentRow | undefined> {
    const patch: Record<string, unknown> = { updated_at: now, revision: this.db.raw('revision + 1') };
    if (changes.name !== undefined) patch.name = changes.name;
    if (changes.description !== undefined) patch.description = changes.description;
    if (changes.tags !== undefined) patch.tags = changes.tags;
    if (changes.stream !== undefined) patch.stream = changes.stream;
    if (changes.config !== undefined) patch.config = JSON.stringify(changes.config);
    if (changes.secrets !== undefined) patch.secrets = changes.secrets;
    if (changes.secret_fields !== undefined) patch.secret_fields = changes.secret_fields;
    // A running source restarts with its new configuration.
    if (changes.config !== undefined || changes.secrets !== undefined || changes.stream !== undefined)
      patch.generation = this.db.raw('generation + 1');
    const [row] = (await this.db('components')
      .where({ tenant_id: tenantId, id })
      .update(patch)
      .returning(COLUMNS)) as ComponentRow[];
    return row;
  }

  /**
   * An operator's action: what should run (`desired`), and — for what has nothing to run, or a
   * stop — the state at once. `restart` bumps the generation so the running instance starts afresh.
   */
  async supervise(
    tenantId: string,
    id: string,
    change: { desired: DesiredState; state?: ComponentState; restart?: boolean },
    now: Date,
  ): Promise<ComponentRow | undefined> {
    const patch: Record<string, unknown> = {
      desired_state: change.desired,
      updated_at: now,
      revision: this.db.raw('revision + 1'),
    };
    if (change.state !== undefined) {
      patch.state = change.state;
      patch.state_since = this.db.raw('CASE WHEN state = ? THEN state_since ELSE ? END', [change.state, now]);
      if (change.state !== 'failed') patch.last_error = null;
    }
    if (change.restart) patch.generation = this.db.raw('generation + 1');
    const [row] = (await this.db('components')
      .where({ tenant_id: tenantId, id })
      .update(patch)
      .returning(COLUMNS)) as ComponentRow[];
    return row;
  }

  /** What the runtime observed: `since` moves only when the state changes. */
  async observe(
    tenantId: string,
    id: string,
    state: ComponentState,
    lastError: string | null,
    nextAttemptAt: Date | null = null,
  ): Promise<void> {
    await this.db('components')
      .where({ tenant_id: tenantId, id })
      .update({
        state,
        last_error: lastError,
        next_attempt_at: nextAttemptAt,
        state_since: this.db.raw('CASE WHEN state = ? THEN state_since ELSE now() END', [state]),
      });
  }

  /** Sources that should run, every tenant's (the supervisor's keys). */
  async wantedRunning(types: readonly string[]): Promise<Array<{ tenant_id: string; id: string }>> {
    if (types.length === 0) return [];
    return (await this.db('components')
      .select('tenant_id', 'id')
      .where({ desired_state: 'running' })
      .whereIn('type', types)) as Array<{ tenant_id: string; id: string }>;
  }

  /** Which of these components were stopped (their desired state), with the state they are in. */
  async stoppedAmong(tenantId: string, ids: readonly string[]): Promise<Array<{ id: string; state: ComponentState }>> {
    if (ids.length === 0) return [];
    return (await this.db('components')
      .select('id', 'state')
      .where({ tenant_id: tenantId, desired_state: 'stopped' })
      .whereIn('id', [...ids])
      .orderBy('id')) as Array<{ id: string; state: ComponentState }>;
  }

  /** Components that use a stream (as a source's stream or in their config), a codec or a studio workspace. */
  async using(tenantId: string, kind: string, id: string): Promise<Array<{ id: string; via: string }>> {
    if (kind === 'variable') return this.referring(tenantId, id);
    const field = { stream: 'stream', codec: 'codec', workspace: 'workspace_id' }[kind];
    if (!field) return [];
    const rows = (await this.db('components')
      .where({ tenant_id: tenantId })
      .andWhere((q) => {
        q.whereRaw('config->>? = ?', [field, id]);
        if (kind === 'stream') q.orWhere('stream', id);
      })
      .orderBy('id')
      .select('id', 'stream')) as Array<{ id: string; stream: string | null }>;
    return rows.map((r) => ({ id: r.id, via: r.stream === id ? 'the stream it appends to' : `config ${field}` }));
  }

  /** Components whose plain config refers to the tenant variable `name` (`${var:NAME}`). */
  private async referring(tenantId: string, name: string): Promise<Array<{ id: string; via: string }>> {
    const rows = (await this.db('components')
      .where({ tenant_id: tenantId })
      .andWhereRaw('position(? in config::text) > 0', [`$\{var:${name}}`])
      .orderBy('id')
      .select('id', 'config')) as Array<{ id: string; config: Record<string, unknown> }>;
    return rows.flatMap((r) => {
      const at = variableReferences(r.config).filter((ref) => ref.name === name);
      return at.length > 0 ? [{ id: r.id, via: `config ${at.map((ref) => ref.pointer).join(', ')}` }] : [];
    });
  }

  async remove(tenantId: string, id: string): Promise<boolean> {
    // RETURNING rather than the affected-row count: knex-pglite reports deletes as a raw result.
    const deleted = (await this.db('components')
      .where({ tenant_id: tenantId, id })
      .delete()
      .returning('id')) as unknown[];
    return deleted.length > 0;
  }
}
