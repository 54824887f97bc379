import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import type { CombinedWrite, Extensions } from '../../kernel/plugin/api.js';
import type { SecretStore } from '../../kernel/types.js';
import { ConfigSchemas } from './config.js';
import {
  componentPublisher,
  componentTypes,
  type ComponentDirectory,
  type ComponentRecord,
  type ComponentType,
  type StreamPublisher,
} from './contract.js';
import { resolveVariables, variableSource } from '../variables/contract.js';
import { open, seal, SECRET_KEY_NAME } from './secrets.js';
import type { ComponentRow } from './store.js';

type Db = Knex | Knex.Transaction;

/** What a create or change stores: config without secrets, the sealed secrets, the stream. */
export interface Prepared {
  config: Record<string, unknown>;
  secrets: string | null;
  secret_fields: string[];
  stream: string | null;
  /** Secrets the service made (a webhook's), shown once in the create response. */
  generated: Record<string, string>;
}

const bodyDetail = (pointer: string, message: string) => ({ details: [{ in: 'body', pointer, message }] });

/** Types, config validation, secrets and streams: what handlers, supervisor and directory share. */
export class ComponentsService {
  readonly schemas = new ConfigSchemas();

  constructor(
    private readonly extensions: Extensions,
    private readonly secrets: SecretStore,
  ) {}

  type(name: string): ComponentType | undefined {
    return this.extensions.all(componentTypes).find((t) => t.name === name);
  }

  sourceTypeNames(): string[] {
    return this.extensions
      .all(componentTypes)
      .filter((t) => t.kind === 'source')
      .map((t) => t.name);
  }

  publisher(): StreamPublisher | undefined {
    return this.extensions.all(componentPublisher)[0];
  }

  /**
   * Made (or read) once at start: a request must not fetch it inside its transaction, since on the
   * embedded database that transaction holds the only connection.
   */
  warmUp(): Promise<Buffer> {
    return this.key();
  }

  private key(): Promise<Buffer> {
    return this.secrets.key(SECRET_KEY_NAME);
  }

  /** Seals a component's secret fields for its row (what a create stores in `secrets`). */
  async seal(values: Record<string, unknown>, where: { tenantId: string; id: string }): Promise<string> {
    return seal(await this.key(), values, where);
  }

  /** The stored secrets in clear; {} when there are none. */
  async openSecrets(row: Pick<ComponentRow, 'tenant_id' | 'id' | 'secrets'>): Promise<Record<string, unknown>> {
    if (!row.secrets) return {};
    return open(await this.key(), row.secrets, { tenantId: row.tenant_id, id: row.id });
  }

  /**
   * Checks a component's type, config and stream and splits its secrets off. A change sends
   * `previous`: secrets it leaves out are kept (they are write-only, so a client cannot echo them).
   * A `legacy` component (made before types) keeps whatever config it is given, unvalidated.
   */
  async prepare(
    db: Db,
    tenantId: string,
    id: string,
    input: { type: string; config: Record<string, unknown>; stream: string | null | undefined },
    previous?: ComponentRow,
  ): Promise<Prepared> {
    const type = this.type(input.type);
    if (!type) {
      if (previous)
        return {
          config: input.config,
          secrets: previous.secrets,
          secret_fields: previous.secret_fields,
          stream: previous.stream,
          generated: {},
        };
      throw new ApiError(
        'validation_error',
        `No component type "${input.type}" (GET /component-types lists them).`,
        bodyDetail('/type', 'names no component type of the enabled plugins'),
      );
    }
    const secretNames = this.schemas.secretFields(type);
    const config: Record<string, unknown> = {
      ...(previous ? await this.openSecrets(previous) : {}),
      ...structuredClone(input.config),
    };
    for (const name of Object.keys(config))
      if (config[name] === null && secretNames.includes(name)) delete config[name];
    const generated = previous ? {} : this.schemas.generate(type, config);
    this.schemas.check(type, config);

    const stream = await this.checkStream(
      db,
      tenantId,
      type,
      input.stream === undefined ? (previous?.stream ?? null) : input.stream,
    );
    const secretValues: Record<string, unknown> = {};
    const plain: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(config))
      (secretNames.includes(name) ? secretValues : plain)[name] = value;
    const fields = Object.keys(secretValues);
    return {
      config: plain,
      secrets: fields.length > 0 ? seal(await this.key(), secretValues, { tenantId, id }) : null,
      secret_fields: fields,
      stream,
      generated,
    };
  }

  /** A source writes to one stream of its tenant (required); other kinds write to none. */
  private async checkStream(
    db: Db,
    tenantId: string,
    type: ComponentType,
    stream: string | null,
  ): Promise<string | null> {
    if (type.kind !== 'source') {
      if (stream !== null)
        throw new ApiError(
          'validation_error',
          `A ${type.kind} does not write to a stream; only sources take "stream".`,
          bodyDetail('/stream', 'only source components take a stream'),
        );
      return null;
    }
    if (stream === null)
      throw new ApiError(
        'validation_error',
        'A source component needs "stream": the stream it appends what it receives to.',
        bodyDetail('/stream', 'is required for a source'),
      );
    const publisher = this.publisher();
    if (!publisher)
      throw new ApiError(
        'validation_error',
        'Sources append to streams, and no streams plugin is enabled.',
        bodyDetail('/stream', 'no streams plugin enabled'),
      );
    if (!(await publisher.exists(db, tenantId, stream)))
      throw new ApiError(
        'validation_error',
        `No stream "${stream}" in this tenant.`,
        bodyDetail('/stream', 'names no stream of this tenant'),
      );
    return stream;
  }

  /**
   * The component as its type runs it: secrets opened and `${var:NAME}` references in its plain
   * config replaced by the tenant's variables, read now (at start, or when a workflow loads the
   * processor), so the values are always the running tenant's own. A reference to a variable the
   * tenant lacks throws, naming it: a source then fails to start with that error.
   */
  async record(db: Knex | Knex.Transaction, row: ComponentRow): Promise<ComponentRecord> {
    const plain = await resolveVariables(this.extensions.all(variableSource), db, row.tenant_id, row.config);
    return {
      tenantId: row.tenant_id,
      id: row.id,
      type: row.type,
      kind: this.type(row.type)?.kind ?? null,
      stream: row.stream,
      state: row.state,
      config: { ...plain, ...(await this.openSecrets(row)) },
    };
  }

  /** Appends a source's message to its stream in `trx`. */
  async emit(
    trx: Knex.Transaction,
    component: { tenantId: string; id: string; stream: string | null },
    message: Parameters<StreamPublisher['append']>[3],
    dedupId?: string,
  ): Promise<{ id: string; duplicate: boolean }> {
    const publisher = this.publisher();
    if (!publisher) throw new Error('no streams plugin is enabled');
    if (!component.stream) throw new Error(`component ${component.id} writes to no stream`);
    const options = dedupId !== undefined ? { dedupKey: `source:${component.id}:${dedupId}` } : {};
    const appended = await publisher.append(trx, component.tenantId, component.stream, message, options);
    return { id: appended.id, duplicate: appended.duplicate };
  }

  /**
   * Appends a batch a source emitted to its stream in `trx`, in order: runs of messages without a
   * broker id go as one multi-row write each; a message with one goes alone (its id is its
   * idempotency key, so a redelivery appends nothing new).
   */
  async emitMany(
    trx: Knex.Transaction,
    component: { tenantId: string; id: string; stream: string | null },
    batch: ReadonlyArray<{ message: Parameters<StreamPublisher['append']>[3]; dedupId?: string | undefined }>,
  ): Promise<void> {
    const publisher = this.publisher();
    if (!publisher) throw new Error('no streams plugin is enabled');
    if (!component.stream) throw new Error(`component ${component.id} writes to no stream`);
    let run: Array<Parameters<StreamPublisher['append']>[3]> = [];
    const flush = async () => {
      if (run.length === 0) return;
      const messages = run;
      run = [];
      if (publisher.appendMany && messages.length > 1)
        await publisher.appendMany(trx, component.tenantId, component.stream as string, messages);
      else for (const m of messages) await publisher.append(trx, component.tenantId, component.stream as string, m);
    };
    for (const { message, dedupId } of batch) {
      if (dedupId === undefined) {
        run.push(message);
        continue;
      }
      await flush();
      await this.emit(trx, component, message, dedupId);
    }
    await flush();
  }

  /**
   * A source's batch as parts of the caller's combined write (its lease fence beside them: one
   * statement, no transaction), when every message goes into one multi-row write — none carries
   * a broker id (those need their idempotency claims read in a transaction) — and the stream's
   * storage allows it. False when not: emitMany in a transaction then.
   */
  async emitManyIn(
    write: CombinedWrite,
    db: Db,
    component: { tenantId: string; id: string; stream: string | null },
    batch: ReadonlyArray<{ message: Parameters<StreamPublisher['append']>[3]; dedupId?: string | undefined }>,
  ): Promise<boolean> {
    const publisher = this.publisher();
    if (!publisher?.appendManyIn || !component.stream || batch.some((p) => p.dedupId !== undefined)) return false;
    return publisher.appendManyIn(
      write,
      db,
      component.tenantId,
      component.stream,
      batch.map((p) => p.message),
    );
  }

  directory(
    find: (db: Db, tenantId: string, id: string) => Promise<ComponentRow | undefined>,
    stopped: ComponentDirectory['stopped'],
    observe: ComponentDirectory['observe'],
  ): ComponentDirectory {
    return {
      find: async (db, tenantId, id) => {
        const row = await find(db, tenantId, id);
        return row && this.record(db, row);
      },
      stopped,
      observe,
      emit: (trx, component, message, options) => this.emit(trx, component, message, options?.dedupKey),
    };
  }
}
