import type { Knex } from 'knex';
import type { Attribution, Call, CompiledRoute, Transport } from '../types.js';

const ACTOR_TYPES = new Set(['human', 'service', 'agent']);

function header(headers: Record<string, string | undefined>, name: string, max = 256): string | undefined {
  const value = headers[name]?.trim();
  return value ? value.slice(0, max) : undefined;
}

/** Audit attribution from the X-Service-* headers (spec §5); an agent id marks an agent. */
export function attributionFrom(headers: Record<string, string | undefined>, transport: Transport): Attribution {
  const agentId = header(headers, 'x-service-agent-id');
  const declared = header(headers, 'x-service-actor-type');
  const actorType = agentId || transport === 'mcp' ? 'agent' : declared && ACTOR_TYPES.has(declared) ? (declared as Attribution['actorType']) : 'human';
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
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/**
 * A fresh Call; `db` is the kernel's handle (the transaction step swaps in the call's transaction).
 * The attribution is read from the headers when something first asks for it (the audit step of
 * a mutating call); most calls, reads and health checks, never do.
 */
export function newCall(input: NewCall, db: Knex): Call {
  let attribution: Attribution | undefined;
  return {
    route: input.route,
    transport: input.transport,
    requestId: input.requestId,
    method: input.method,
    path: input.path,
    params: input.params,
    query: input.query,
    headers: input.headers,
    body: input.body,
    receivedAt: new Date(),
    get attribution(): Attribution {
      attribution ??= attributionFrom(input.headers, input.transport);
      return attribution;
    },
    set attribution(value: Attribution) {
      attribution = value;
    },
    dryRun: false,
    db,
    notes: {},
  };
}
