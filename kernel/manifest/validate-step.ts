import { ApiError, type ErrorDetail } from '../errors.js';
import { bodyRequired, takesJsonBody } from './body.js';
import type { SchemaCompiler, Validator } from './validators.js';
import type { StepFactory } from '../types.js';

/** Validates params, query and body against the route's compiled schemas → 400 with pointers. */
export function validateStep(compiler: SchemaCompiler): StepFactory {
  return (route) => {
    const { params, query, body } = route.schemas;
    const checks: Array<[part: 'params' | 'query' | 'body', validate: Validator]> = [];
    if (params) checks.push(['params', compiler.compile(route.plugin, 'params', params)]);
    if (query) checks.push(['query', compiler.compile(route.plugin, 'query', query)]);
    const jsonBody = takesJsonBody(route);
    if (jsonBody && body) checks.push(['body', compiler.compile(route.plugin, 'body', body)]);
    // A body whose fields are all optional may be left out; the handler then sees `{}`.
    const emptyBodyAllowed = jsonBody && !bodyRequired(route);
    // A route with nothing to check (no schemas, no body) runs no step at all.
    if (checks.length === 0 && !emptyBodyAllowed) return null;
    // Most calls send no query string, and an empty query always validates the same way: once,
    // at its first call, keeping the problems or the defaults the schema fills in.
    let emptyQuery: { problems: ErrorDetail[] | null; withDefaults: string | undefined } | undefined;
    const checkEmptyQuery = (validate: Validator): NonNullable<typeof emptyQuery> => {
      const value: Record<string, unknown> = {};
      const problems = validate(value);
      return { problems, withDefaults: isEmpty(value) ? undefined : JSON.stringify(value) };
    };
    return (call, next) => {
      if (emptyBodyAllowed && call.body === undefined) call.body = {};
      const details: ErrorDetail[] = [];
      for (const [part, validate] of checks) {
        if (part === 'query' && isEmpty(call.query)) {
          emptyQuery ??= checkEmptyQuery(validate);
          if (emptyQuery.problems) details.push(...emptyQuery.problems);
          else if (emptyQuery.withDefaults !== undefined)
            call.query = JSON.parse(emptyQuery.withDefaults) as Record<string, unknown>;
          continue;
        }
        // Raw bytes on a route that takes JSON or octet-stream: the JSON schema does not apply.
        if (part === 'body' && Buffer.isBuffer(call.body)) continue;
        if (part === 'body' && call.body === undefined) {
          details.push({ in: 'body', pointer: '/', message: 'a JSON body is required' });
          continue;
        }
        const problems = validate(call[part]);
        if (problems) details.push(...problems);
      }
      if (details.length > 0) {
        const first = details[0] as ErrorDetail;
        throw new ApiError('validation_error', `Invalid request: ${first.in} ${first.pointer} ${first.message}.`, {
          details,
        });
      }
      return next();
    };
  };
}

function isEmpty(value: Record<string, unknown>): boolean {
  for (const _key in value) return false;
  return true;
}
