import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import { isUniqueViolation } from '../../kernel/plugin/api.js';
import type { CompatibilityProblem } from './contract.js';

export interface Codec {
  id: string;
  tenant_id: string;
  name: string;
  kind: string;
  /** The kind's schema as sent; null when the codec has none. */
  schema: unknown;
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface CodecRevision {
  codec_id: string;
  revision: number;
  name: string;
  kind: string;
  schema: unknown;
  /** What broke compatibility when the revision was forced in (`?force=true`); null otherwise. */
  forced_problems: CompatibilityProblem[] | null;
  changed_by: string | null;
  created_at: string;
}

export interface CodecFields {
  name: string;
  kind: string;
  schema: unknown;
}

interface Stamped {
  created_at: Date | string;
}

const CODEC_COLUMNS = ['id', 'tenant_id', 'name', 'kind', 'schema', 'revision', 'created_at', 'updated_at'];
const REVISION_COLUMNS = [
  'codec_id',
  'revision',
  'name',
  'kind',
  'schema',
  'forced_problems',
  'changed_by',
  'created_at',
];

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function toCodec(row: Omit<Codec, 'created_at' | 'updated_at'> & Stamped & { updated_at: Date | string }): Codec {
  return { ...row, schema: row.schema ?? null, created_at: iso(row.created_at), updated_at: iso(row.updated_at) };
}

function toRevision(row: Omit<CodecRevision, 'created_at'> & Stamped): CodecRevision {
  return { ...row, schema: row.schema ?? null, created_at: iso(row.created_at) };
}

/** A JSON value for a jsonb column: SQL NULL for no schema, the JSON text otherwise (a bare string included). */
function jsonb(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/** The codecs and their revisions. Every query is keyed by tenant first (DESIGN.md "Storage"). */
export class CodecStore {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async list(tenantId: string, filter: { fetch: number; afterId?: string; kind?: string }): Promise<Codec[]> {
    const query = this.db('codecs')
      .select(CODEC_COLUMNS)
      .where({ tenant_id: tenantId })
      .orderBy('id', 'asc')
      .limit(filter.fetch);
    if (filter.kind !== undefined) query.andWhere('kind', filter.kind);
    if (filter.afterId !== undefined) query.andWhere('id', '>', filter.afterId);
    return ((await query) as Parameters<typeof toCodec>[0][]).map(toCodec);
  }

  async get(tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<Codec | undefined> {
    const query = this.db('codecs').select(CODEC_COLUMNS).where({ tenant_id: tenantId, id }).first();
    // A PUT reads, checks and writes: the row lock keeps a concurrent PUT from slipping between.
    if (options.forUpdate) query.forUpdate();
    const row = (await query) as Parameters<typeof toCodec>[0] | undefined;
    return row && toCodec(row);
  }

  /** Inserts the codec and its first revision. */
  async insert(tenantId: string, id: string, fields: CodecFields, changedBy: string | null, now: Date): Promise<Codec> {
    try {
      const [row] = (await this.db('codecs')
        .insert({
          tenant_id: tenantId,
          id,
          name: fields.name,
          kind: fields.kind,
          schema: jsonb(fields.schema),
          revision: 1,
          created_at: now,
          updated_at: now,
        })
        .returning(CODEC_COLUMNS)) as Parameters<typeof toCodec>[0][];
      await this.insertRevision(tenantId, id, 1, fields, null, changedBy, now);
      return toCodec(row as Parameters<typeof toCodec>[0]);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ApiError('duplicate_identifier', `A codec with id "${id}" already exists.`);
      throw err;
    }
  }

  /** Writes the next revision of a codec (the caller holds its row lock) and keeps it in the history. */
  async replace(
    tenantId: string,
    current: Codec,
    fields: CodecFields,
    forced: CompatibilityProblem[] | null,
    changedBy: string | null,
    now: Date,
  ): Promise<Codec> {
    const revision = current.revision + 1;
    const [row] = (await this.db('codecs')
      .where({ tenant_id: tenantId, id: current.id })
      .update({ name: fields.name, kind: fields.kind, schema: jsonb(fields.schema), revision, updated_at: now })
      .returning(CODEC_COLUMNS)) as Parameters<typeof toCodec>[0][];
    await this.insertRevision(tenantId, current.id, revision, fields, forced, changedBy, now);
    return toCodec(row as Parameters<typeof toCodec>[0]);
  }

  /** Deletes the codec with its history; false when there was none. */
  async remove(tenantId: string, id: string): Promise<boolean> {
    // RETURNING rather than the affected-row count: knex-pglite reports deletes as a raw result.
    const deleted = (await this.db('codecs').where({ tenant_id: tenantId, id }).delete().returning('id')) as unknown[];
    if (deleted.length === 0) return false;
    await this.db('codecs_revisions').where({ tenant_id: tenantId, codec_id: id }).delete();
    return true;
  }

  async revisions(
    tenantId: string,
    codecId: string,
    filter: { fetch: number; afterRevision?: number },
  ): Promise<CodecRevision[]> {
    const query = this.db('codecs_revisions')
      .select(REVISION_COLUMNS)
      .where({ tenant_id: tenantId, codec_id: codecId })
      .orderBy('revision', 'asc')
      .limit(filter.fetch);
    if (filter.afterRevision !== undefined) query.andWhere('revision', '>', filter.afterRevision);
    return ((await query) as Parameters<typeof toRevision>[0][]).map(toRevision);
  }

  async revision(tenantId: string, codecId: string, revision: number): Promise<CodecRevision | undefined> {
    const row = (await this.db('codecs_revisions')
      .select(REVISION_COLUMNS)
      .where({ tenant_id: tenantId, codec_id: codecId, revision })
      .first()) as Parameters<typeof toRevision>[0] | undefined;
    return row && toRevision(row);
  }

  private async insertRevision(
    tenantId: string,
    codecId: string,
    revision: number,
    fields: CodecFields,
    forced: CompatibilityProblem[] | null,
    changedBy: string | null,
    now: Date,
  ): Promise<void> {
    await this.db('codecs_revisions').insert({
      tenant_id: tenantId,
      codec_id: codecId,
      revision,
      name: fields.name,
      kind: fields.kind,
      schema: jsonb(fields.schema),
      forced_problems: forced === null ? null : JSON.stringify(forced),
      changed_by: changedBy,
      created_at: now,
    });
  }
}
