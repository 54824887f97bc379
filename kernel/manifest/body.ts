import type { CompiledRoute } from '../types.js';

/** Whether the route reads a JSON body validated against its body schema. */
export function takesJsonBody(route: CompiledRoute): boolean {
  const type = route.decl.body_type ?? 'json';
  return route.schemas.body !== undefined && (type === 'json' || type === 'json-or-octet-stream');
}

const COMBINATORS = ['oneOf', 'anyOf', 'allOf', 'not', 'if', '$ref', 'dependentRequired', 'dependentSchemas'];

/**
 * Whether a call must send its JSON body. A plain object schema that `{}` satisfies (no required
 * field, no minProperties) makes it optional: an action whose fields are all optional may be
 * called with no body, which is then validated and handled as `{}`. Anything the kernel cannot
 * read at a glance (arrays, unions, conditionals) keeps the body required, as does the
 * manifest's `body_required`. Validation and the OpenAPI document both ask this one function.
 */
export function bodyRequired(route: CompiledRoute): boolean {
  const schema = route.schemas.body;
  if (!schema || !takesJsonBody(route)) return false;
  if (route.decl.body_required === true) return true;
  if (schema.type !== 'object' || COMBINATORS.some((keyword) => keyword in schema)) return true;
  const required = schema.required;
  const minProperties = schema.minProperties;
  return (Array.isArray(required) && required.length > 0) || (typeof minProperties === 'number' && minProperties > 0);
}
