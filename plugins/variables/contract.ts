import type { Knex } from 'knex';
import { extensionPoint } from '../../kernel/plugin/api.js';

/** A variable's name: what `${var:NAME}` refers to. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/** `${var:NAME}` inside any string of a config. */
const REFERENCE = /\$\{var:([A-Za-z_][A-Za-z0-9_]{0,99})\}/g;

/** A tenant's variables as the plugins that use configs read them (the variables plugin gives it). */
export interface VariableSource {
  /** The values of `names` the tenant has set; a name it lacks is absent from the map. */
  values(db: Knex | Knex.Transaction, tenantId: string, names: readonly string[]): Promise<Map<string, string>>;
}

/**
 * Offered and given by the variables plugin; components and workflows read it (through
 * `resolveVariables`) when a config is used. Without the plugin, nothing resolves a reference.
 */
export const variableSource = extensionPoint<VariableSource>('variables.source', { single: true });

/** The variable names `value` refers to (in any string, at any depth), sorted. */
export function referencedVariables(value: unknown): string[] {
  const names = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') for (const m of v.matchAll(REFERENCE)) names.add(m[1] as string);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) walk(x);
  };
  walk(value);
  return [...names].sort();
}

/** Where `value` refers to a variable: each reference's name and the JSON pointer of its string. */
export function variableReferences(value: unknown): Array<{ name: string; pointer: string }> {
  const out: Array<{ name: string; pointer: string }> = [];
  const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');
  const walk = (v: unknown, pointer: string): void => {
    if (typeof v === 'string') for (const m of v.matchAll(REFERENCE)) out.push({ name: m[1] as string, pointer });
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${pointer}/${i}`));
    else if (typeof v === 'object' && v !== null)
      for (const [k, x] of Object.entries(v)) walk(x, `${pointer}/${escape(k)}`);
  };
  walk(value, '');
  return out;
}

/** The references of `value` to variables the tenant lacks (all of them when no variables plugin is enabled). */
export async function unsetReferences(
  sources: readonly VariableSource[],
  db: Knex | Knex.Transaction,
  tenantId: string,
  value: unknown,
): Promise<Array<{ name: string; pointer: string }>> {
  const references = variableReferences(value);
  if (references.length === 0) return [];
  const [source] = sources;
  const set = source ? await source.values(db, tenantId, [...new Set(references.map((r) => r.name))]) : new Map();
  return references.filter((r) => !set.has(r.name));
}

/** `value` with every reference replaced by its variable's value (each must be in `values`). */
export function substituteVariables<T>(value: T, values: ReadonlyMap<string, string>): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(REFERENCE, (_all, name: string) => values.get(name) ?? '');
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** A config refers to variables the tenant has not set (or no variables plugin is enabled). */
export class MissingVariablesError extends Error {
  constructor(
    readonly missing: string[],
    enabled: boolean,
  ) {
    super(
      enabled
        ? `variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set in this tenant (PUT /variables/{name})`
        : `the config refers to ${missing.map((m) => `\${var:${m}}`).join(', ')}, but no variables plugin is enabled`,
    );
    this.name = 'MissingVariablesError';
  }
}

/**
 * Resolves the `${var:NAME}` references of a config against the tenant's variables, when the
 * config is used (a component starts, a workflow's deployment loads): the value is the
 * tenant's own, never what another tenant's bundle carried. Throws MissingVariablesError.
 */
export async function resolveVariables<T>(
  sources: readonly VariableSource[],
  db: Knex | Knex.Transaction,
  tenantId: string,
  value: T,
): Promise<T> {
  const names = referencedVariables(value);
  if (names.length === 0) return value;
  const [source] = sources;
  if (!source) throw new MissingVariablesError(names, false);
  const values = await source.values(db, tenantId, names);
  const missing = names.filter((n) => !values.has(n));
  if (missing.length > 0) throw new MissingVariablesError(missing, true);
  return substituteVariables(value, values);
}
