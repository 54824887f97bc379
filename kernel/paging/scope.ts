import type { Call, CompiledRoute } from '../types.js';
import { canonicalJson } from './canonical.js';
import { NON_FILTER_FIELDS } from '../manifest/kernel-fields.js';

/** The query fields a route's cursors are bound to: the declared `filters`, else every query field. */
export function filterFields(route: CompiledRoute): string[] {
  const declared = route.decl.paging?.filters;
  if (declared) return [...declared].sort();
  const properties = Object.keys((route.schemas.query?.properties as Record<string, unknown> | undefined) ?? {});
  return properties.filter((name) => !NON_FILTER_FIELDS.has(name)).sort();
}

/**
 * What a cursor is bound to: the operation, the effective tenant and the filter values as
 * validated (so `?state=running` and a cursor minted for `?state=stopped` never mix).
 */
export function cursorScope(route: CompiledRoute, fields: readonly string[], call: Call): string {
  const filters: Record<string, unknown> = {};
  for (const name of fields) if (call.query[name] !== undefined) filters[name] = call.query[name];
  return canonicalJson([route.decl.operation, call.tenantId ?? '', filters]);
}
