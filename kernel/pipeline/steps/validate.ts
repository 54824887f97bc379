import { ApiError, type ErrorDetail } from '../../errors.js';
import { bodyRequired, takesJsonBody } from '../../manifest/body.js';
import type { SchemaCompiler, Validator } from '../../manifest/validators.js';
import type { StepFactory } from '../../types.js';

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
    return (call, next) => {
      if (emptyBodyAllowed && call.body === undefined) call.body = {};
      const details: ErrorDetail[] = [];
      for (const [part, validate] of checks) {
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
        throw new ApiError('validation_error', `Invalid request: ${first.in} ${first.pointer} ${first.message}.`, { details });
      }
      return next();
    };
  };
}
