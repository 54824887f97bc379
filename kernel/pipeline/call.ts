import type { Knex } from 'knex';
import type { Attribution, Call, CallNotes, CompiledRoute, PageRequest, Principal, Transport } from '../types.js';

const ACTOR_TYPES = new Set(['human', 'service', 'agent']);

function header(headers: Record<string, string | undefined>, name: string, max = 256): string | undefined {
  const value = headers[name]?.trim();
  return value ? value.slice(0, max) : undefined;
}

/** Audit attribution from the X-Service-* headers (spec §5); an agent id marks an agent. */
export function attributionFrom(headers: Record<string, string | undefined>, transport: Transport): Attribution {
  const agentId = header(headers, 'x-service-agent-id');
  const declared = header(headers, 'x-service-actor-type');
  const actorType =
    agentId || transport === 'mcp' || transport === 'agent'
      ? 'agent'
      : declared && ACTOR_TYPES.has(declared)
        ? (declared as Attribution['actorType'])
        : 'human';
  const attribution: Attribution = { actorType };
  if (agentId) attribution.agentId = agentId;
  const actorId = header(headers, 'x-service-actor-id');
  if (actorId) attribution.actorId = actorId;
  const actorEmail = header(headers, 'x-service-actor-email');
  if (actorEmail) attribution.actorEmail = actorEmail;
  return attribution;
}

export interface NewCall {
  route: CompiledRoute;
  transport: Transport;
  requestId: string;
  method: string;
  path: string;
  /** How to tell the request's origin (read only when something asks: few calls do). */
  origin?: () => string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/**
 * A call as the transports make it. A class rather than an object literal: V8 gives every
 * instance one shape, declared up front, where a literal with an accessor cost more to build
 * than anything else the kernel does for a /health request. The attribution is read from the
 * headers when something first asks for it (the audit step of a mutating call); most calls,
 * reads and health checks, never do.
 */
class TransportCall implements Call {
  readonly route: CompiledRoute;
  readonly transport: Transport;
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  readonly headers: Record<string, string | undefined>;
  body: unknown;
  /** Read as `receivedAt`; a number until then, since most calls never ask. */
  private readonly receivedMs = Date.now();
  private receivedDate: Date | undefined = undefined;
  principal?: Principal = undefined;
  tenantId?: string = undefined;
  page?: PageRequest = undefined;
  idempotencyKey?: string = undefined;
  dryRun = false;
  db: Knex | Knex.Transaction;
  resourceId?: string = undefined;
  readonly notes: CallNotes = {};
  private attributionRead: Attribution | undefined = undefined;
  private readonly originOf: (() => string) | undefined;
  private originRead: string | undefined = undefined;

  constructor(input: NewCall, db: Knex) {
    this.route = input.route;
    this.transport = input.transport;
    this.requestId = input.requestId;
    this.method = input.method;
    this.path = input.path;
    this.originOf = input.origin;
    this.params = input.params;
    this.query = input.query;
    this.headers = input.headers;
    this.body = input.body;
    this.db = db;
  }

  get receivedAt(): Date {
    this.receivedDate ??= new Date(this.receivedMs);
    return this.receivedDate;
  }

  get origin(): string | undefined {
    if (this.originRead === undefined && this.originOf) this.originRead = this.originOf();
    return this.originRead;
  }

  get attribution(): Attribution {
    this.attributionRead ??= attributionFrom(this.headers, this.transport);
    return this.attributionRead;
  }

  set attribution(value: Attribution) {
    this.attributionRead = value;
  }
}

/** A fresh Call; `db` is the kernel's handle (the transaction step swaps in the call's transaction). */
export function newCall(input: NewCall, db: Knex): Call {
  return new TransportCall(input, db);
}
