import { ApiError, type ErrorDetail } from '../errors.js';
import { hostileValues } from './hostile.js';
import { TENANT_PATTERN } from '../tenancy/scope.js';
import type { StepFactory } from '../types.js';

/** Request headers whose values become data (a tenant to act in); each must be well-formed. */
function headerProblems(headers: Readonly<Record<string, string | undefined>>): ErrorDetail[] {
  const tenant = headers['x-service-tenant']?.trim();
  if (tenant !== undefined && tenant !== '' && !TENANT_PATTERN.test(tenant)) {
    return [{ in: 'headers', pointer: '/x-service-tenant', message: 'is not a tenant id' }];
  }
  return [];
}

/**
 * Runs on every route, public ones included, before any step or handler reads the input:
 * values no schema could make storable (NUL, lone surrogates, non-finite numbers, nesting
 * deeper than 64) are refused with 400 naming the field. Later steps and handlers may then
 * recurse into the input and pass its strings to PostgreSQL without a second thought. It runs
 * inside the audit step, so the refusal is still recorded.
 */
export const inputGuardStep: StepFactory = () => (call, next) => {
  // Most calls carry no params, no query and no body: nothing to walk, nothing to allocate.
  const details: ErrorDetail[] = [];
  if (!isEmpty(call.params)) details.push(...hostileValues('params', call.params));
  if (!isEmpty(call.query)) details.push(...hostileValues('query', call.query));
  if (call.body !== undefined && !Buffer.isBuffer(call.body)) details.push(...hostileValues('body', call.body));
  if (call.headers['x-service-tenant'] !== undefined) details.push(...headerProblems(call.headers));
  if (details.length > 0) {
    const first = details[0] as ErrorDetail;
    throw new ApiError('validation_error', `Invalid request: ${first.in} ${first.pointer} ${first.message}.`, {
      details,
    });
  }
  return next();
};

function isEmpty(value: Record<string, unknown>): boolean {
  for (const _ in value) return false;
  return true;
}
