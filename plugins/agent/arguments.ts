import type { ArgumentLayout } from './input-schema.js';

/** A tool's arguments put back where the route takes them. */
export interface RouteArguments {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

/** Arguments that cannot be mapped onto the route at all (before schema validation). */
export class ArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArgumentError';
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeBase64(name: string, value: unknown): Buffer {
  if (typeof value !== 'string' || value.length % 4 !== 0 || !BASE64.test(value)) {
    throw new ArgumentError(`The argument ${name} must be a base64 string.`);
  }
  return Buffer.from(value, 'base64');
}

/**
 * Splits a tool's flat arguments into path params, query and body by the layout derived from
 * the route's schemas. Nothing is validated here: the route's own validation step does that,
 * once, exactly as for REST. An argument no part claims goes to the query (or to an open body),
 * where the route's schema refuses it by name.
 */
export function splitArguments(args: Readonly<Record<string, unknown>>, layout: ArgumentLayout): RouteArguments {
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const fields: Record<string, unknown> = {};
  const bodyLayout = layout.body;
  let body: unknown;
  for (const [name, value] of Object.entries(args)) {
    if (layout.params.has(name)) params[name] = value;
    else if (layout.query.has(name)) query[name] = value;
    else if (bodyLayout.mode === 'fields') fields[name] = value;
    else if (bodyLayout.mode === 'whole' && name === bodyLayout.argument) body = value;
    else if (bodyLayout.mode === 'binary' && name === bodyLayout.argument) body = decodeBase64(name, value);
    else query[name] = value;
  }
  if (bodyLayout.mode === 'fields') body = fields;
  return { params, query, body };
}
