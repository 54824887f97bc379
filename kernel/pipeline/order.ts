import type { StepFactory, StepSlot } from '../types.js';
import type { SchemaCompiler } from '../manifest/validators.js';
import { authenticateStep } from './steps/authenticate.js';
import { tenancyStep } from './steps/tenancy.js';
import { authorizeStep } from './steps/authorize.js';
import { validateStep } from './steps/validate.js';
import { transactionStep } from './steps/transaction.js';
import { pagingStep } from './steps/paging.js';

/**
 * The request pipeline in DESIGN.md's order. Each factory decides at boot whether its step
 * applies to a route, so a route pays only for what its manifest declares.
 */
export function pipelineFactories(compiler: SchemaCompiler, extra: Partial<Record<StepSlot, StepFactory[]>>): StepFactory[] {
  return [
    authenticateStep,
    ...(extra.authenticate ?? []),
    tenancyStep,
    authorizeStep,
    ...(extra.authorize ?? []),
    validateStep(compiler),
    transactionStep(async () => {}),
    pagingStep,
  ];
}
