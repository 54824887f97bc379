/**
 * A request as the kernel sees it: a transport-neutral `Call` that flows through the steps
 * composed for its route, whoever made it (HTTP, MCP, an operator command, the agent).
 */
import type { Knex } from 'knex';
import type { CombinedWrite } from '../db/combined-write.js';
import type { JsonSchema, RouteDecl } from '../manifest/types.js';
import type { Reply } from './reply.js';
import type { KernelServices } from './services.js';

/** Who is calling, as the authentication chain established it. */
export interface Principal {
  subjectId: string;
  tenantId: string;
  /** How the caller authenticated and the id of that credential (session id, token id, ...). */
  credential: { kind: CredentialKind; id: string };
  roles: readonly string[];
  permissions: ReadonlySet<string>;
  /** A credential restricted to read-only operations (e.g. a read-only API token). */
  readOnly?: boolean;
  email?: string;
}

export type CredentialKind = 'session' | 'api_token' | 'oidc' | 'break_glass' | 'local' | 'maintenance';

/** Audit attribution taken from the X-Service-* headers (spec §5). */
export interface Attribution {
  actorType: 'human' | 'service' | 'agent';
  agentId?: string;
  actorId?: string;
  actorEmail?: string;
}

/** What the kernel's paging step hands a list handler: a keyset position, never an offset. */
export interface PageRequest {
  /** How many items the caller asked for, clamped to the route's ceiling. */
  limit: number;
  /** The handler should fetch this many rows (limit + 1) so the kernel knows whether more follow. */
  fetch: number;
  /** Values of the route's paging key for the last row already served; absent on the first page. */
  after?: readonly unknown[];
}

/** How a call reached the pipeline: HTTP, an MCP tool call, or an operator's maintenance command. */
/** How a call arrived: REST, an MCP tool call, an admin command, or a tool call of the in-product agent. */
export type Transport = 'http' | 'mcp' | 'cli' | 'agent';

/** One request as it flows through the pipeline. Steps fill in the optional parts. */
export interface Call {
  readonly requestId: string;
  readonly route: CompiledRoute;
  readonly transport: Transport;
  readonly method: string;
  /** The concrete path requested. */
  readonly path: string;
  /**
   * Over HTTP, the origin the request was addressed to (`https://host:port`): the scheme is
   * https over TLS or, behind a trusted proxy (http.trust_proxy), as X-Forwarded-Proto says.
   */
  readonly origin: string | undefined;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Parsed JSON, a Buffer for octet-stream routes, or undefined. */
  body: unknown;
  readonly receivedAt: Date;
  principal?: Principal;
  tenantId?: string;
  attribution: Attribution;
  page?: PageRequest;
  idempotencyKey?: string;
  dryRun: boolean;
  /** Database handle for the handler: the request's transaction when the route writes. */
  db: Knex | Knex.Transaction;
  /**
   * Set instead of a transaction when the handler asked for a combined write (see Handler's
   * `combinedWrite`): its writes go here, `db` is then for reads only, and the kernel sends them
   * with the call's audit record as one statement after the handler returns.
   */
  write?: CombinedWrite;
  /** Resource id the handler acted on, for the audit record; defaults to params.id or body id. */
  resourceId?: string;
  /** Facts steps record for the audit record and the dry-run report. */
  readonly notes: CallNotes;
}

export interface CallNotes {
  permissionChecked?: string;
  auditFields?: Record<string, unknown>;
  /** Set once the audit record of this call has been written (so it is written exactly once). */
  audited?: boolean;
  /** Extra detail for the audit record, e.g. the reason sent with a break-glass key. */
  auditDetail?: Record<string, unknown>;
  severity?: 'info' | 'critical';
  /** Set when the idempotency step answered with a stored response (no effect this time). */
  replayed?: boolean;
}

export type Handler = ((call: Call) => Promise<Reply> | Reply) & {
  /**
   * Optional work of a mutating route done after validation but before its transaction opens,
   * for a slow remote call whose outcome the handler then records (the handler finds what it
   * left by the call). It holds no database connection while it waits, which on the embedded
   * database (one connection) would stall every other write. What it does is not rolled back by
   * a failing transaction, so it must be safe to leave behind. Not run for dry runs.
   */
  beforeTransaction?: (call: Call) => Promise<void>;
  /**
   * Optional: true when this call's effect is a few writes that need no reads in between (appends,
   * say). The handler then gets `call.write` instead of a transaction and adds its writes there;
   * the kernel commits them with the audit record — and the idempotency key's claim and stored
   * response, when the call has a key — in one statement. Asked after `beforeTransaction`, never
   * for dry runs. The handler answers before the statement is sent, so its reply must not depend
   * on what the statement returns.
   */
  combinedWrite?: (call: Call) => boolean;
};
export type Next = () => Promise<Reply>;
export type Step = ((call: Call, next: Next) => Promise<Reply>) & {
  /**
   * The step may call `next()` a second time once the first call settled: the transaction step
   * runs a call again in a transaction when its combined write could not be sent (RunInTransaction).
   */
  readonly repeatsNext?: boolean;
};

/** Builds the step for one route at boot; returns null when the step does not apply to it. */
export type StepFactory = (route: CompiledRoute, kernel: KernelServices, handler?: Handler) => Step | null;

/** A manifest route after boot: its plugin, compiled validators and composed pipeline. */
export interface CompiledRoute {
  readonly plugin: string;
  readonly decl: RouteDecl;
  /** The OpenAPI-style path (`/components/{id}`). */
  readonly path: string;
  readonly mutating: boolean;
  readonly idempotency: 'none' | 'request_id' | 'idempotency_key';
  readonly auditClass: 'change' | 'action' | 'security' | 'critical' | 'none';
  readonly dryRunAllowed: boolean;
  readonly tenancy: 'tenant' | 'none';
  /**
   * Effective schemas: the manifest's, plus the fields the kernel adds (tenant_id, limit,
   * cursor, dry_run, the idempotency field). `$ref`s still point at `#/schemas/<Name>` of the
   * route's plugin; consumers rewrite them with `rewriteRefs`.
   */
  readonly schemas: { params?: JsonSchema; query?: JsonSchema; body?: JsonSchema; response?: JsonSchema };
}
