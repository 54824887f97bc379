import type { StepFactory, StepSlot } from '../types.js';
import type { SchemaCompiler } from '../manifest/validators.js';
import { dryRunStep } from './steps/dry-run.js';
import { auditBeforeCommit, auditInCombinedWrite, auditStep } from '../audit/step.js';
import { authenticateStep } from './steps/authenticate.js';
import { inputGuardStep } from './steps/input-guard.js';
import { tenancyStep } from './steps/tenancy.js';
import { authorizeStep } from './steps/authorize.js';
import { validateStep } from './steps/validate.js';
import { transactionStep } from './steps/transaction.js';
import { idempotencyStep } from './steps/idempotency.js';
import { pagingStep } from './steps/paging.js';
import { ticketStep } from './steps/ticket.js';
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
 * stored response commits with its effect and audit record or not at all. A WebSocket route
 * authenticates by its ticket instead of the credential chain; it and an event-stream route are
 * GETs, so no transaction, idempotency or audit step applies to them.
 */
export function pipelineFactories(compiler: SchemaCompiler, extra: Partial<Record<StepSlot, StepFactory[]>>, tickets: TicketStore): StepFactory[] {
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
    transactionStep([auditBeforeCommit], [auditInCombinedWrite]),
    idempotencyStep,
    pagingStep,
  ];
}
