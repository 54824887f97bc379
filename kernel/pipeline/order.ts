import type { StepFactory, StepSlot } from '../types.js';
import type { SchemaCompiler } from '../manifest/validators.js';
import { dryRunStep } from './steps/dry-run.js';
import { auditBeforeCommit, auditInCombinedWrite, auditStep } from '../audit/step.js';
import { authenticateStep } from './steps/authenticate.js';
import { inputGuardStep } from '../input/step.js';
import { tenancyStep } from '../tenancy/step.js';
import { authorizeStep } from './steps/authorize.js';
import { validateStep } from '../manifest/validate-step.js';
import { transactionStep } from '../db/transaction-step.js';
import { idempotencyStep } from '../idempotency/step.js';
import { keyInCombinedWrite } from '../idempotency/combined.js';
import { credentialInCombinedWrite } from './remembered-credential.js';
import { pagingStep } from '../paging/step.js';
import { entityTagStep } from '../concurrency/etag.js';
import { ticketStep } from '../realtime/ticket-step.js';
import type { TicketStore } from '../realtime/tickets.js';

/**
 * The request pipeline in DESIGN.md's order. Each factory decides at boot whether its step
 * applies to a route, so a route pays only for what its manifest declares.
 *
 * The input guard runs right after authentication (which reads only headers, and tells the
 * audit record whose call it was) and before any step or handler reads the input, public routes
 * included, so no string PostgreSQL cannot store ever reaches it (a NUL in a login name is a
 * 400, not a 500).
 *
 * Dry-run and audit come first so that a call refused by any later step is still recorded (and
 * recorded as a dry run when it was one); the dry-run report wraps the reply after the audit
 * step has recorded what would have happened. Idempotency runs inside the transaction, so a
 * stored response commits with its effect and audit record or not at all (in a combined write,
 * in the same statement, which also confirms a principal the authentication step took from an
 * authenticator's memory). A WebSocket route
 * authenticates by its ticket instead of the credential chain; it and an event-stream route are
 * GETs, so no transaction, idempotency or audit step applies to them. The ETag step sits next
 * to the handler, so the reply the idempotency step stores carries the ETag it was sent with.
 */
export function pipelineFactories(
  compiler: SchemaCompiler,
  extra: Partial<Record<StepSlot, StepFactory[]>>,
  tickets: TicketStore,
): StepFactory[] {
  return [
    dryRunStep,
    auditStep,
    authenticateStep,
    ticketStep(tickets),
    ...(extra.authenticate ?? []),
    inputGuardStep,
    tenancyStep,
    authorizeStep,
    ...(extra.authorize ?? []),
    validateStep(compiler),
    // The credential's guard is added last, so it goes first: a call whose credential no longer holds claims no key.
    transactionStep([auditBeforeCommit], [auditInCombinedWrite, keyInCombinedWrite, credentialInCombinedWrite]),
    idempotencyStep,
    pagingStep,
    entityTagStep,
  ];
}
