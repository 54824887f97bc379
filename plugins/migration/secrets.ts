import type { BundleItem, GateCheck } from './contract.js';

/** A component secret in a bundle: never its value, a named placeholder the target fills. */
export interface SecretPlaceholder {
  $secret: string;
}

function isPlaceholder(value: unknown): value is SecretPlaceholder {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as SecretPlaceholder).$secret === 'string' && Object.keys(value).length === 1;
}

/** Replaces the config fields a component type marks `x-secret` with placeholders `<component>:<pointer>`. */
export function hideSecrets(componentId: string, config: Record<string, unknown>, schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const out: Record<string, unknown> = { ...config };
  for (const [key, field] of Object.entries(properties)) {
    if (field?.['x-secret'] === true && key in out) out[key] = { $secret: `${componentId}:/${key}` };
  }
  return out;
}

/** Every placeholder in a component's config, with where it sits. */
function placeholders(config: unknown, pointer = ''): Array<{ pointer: string; name: string }> {
  if (isPlaceholder(config)) return [{ pointer, name: config.$secret }];
  if (typeof config !== 'object' || config === null) return [];
  return Object.entries(config as Record<string, unknown>).flatMap(([k, v]) => placeholders(v, `${pointer}/${k}`));
}

function at(value: unknown, pointer: string): unknown {
  let node = value;
  for (const part of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function fill(config: unknown, target: unknown, pointer = ''): unknown {
  if (isPlaceholder(config)) return at(target, pointer);
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return config;
  return Object.fromEntries(Object.entries(config as Record<string, unknown>).map(([k, v]) => [k, fill(v, target, `${pointer}/${k}`)]));
}

/** The gate's `secrets_present`: every placeholder has a value at the same place in the target's component. */
export function secretsCheck(bundle: readonly BundleItem[], target: readonly BundleItem[]): GateCheck {
  const byId = new Map(target.map((t) => [t.id, t.content.config]));
  const missing: string[] = [];
  let count = 0;
  for (const item of bundle) {
    for (const { pointer, name } of placeholders(item.content.config)) {
      count++;
      const value = at(byId.get(item.id), pointer);
      if (value === undefined || value === null || isPlaceholder(value)) missing.push(name);
    }
  }
  return { check: 'secrets_present', ok: missing.length === 0, detail: missing.length === 0 ? `${count} secret placeholder(s), each with a value on the target` : `no value on the target for: ${missing.join(', ')}` };
}

/** The bundle's components with their placeholders filled from the target's. */
export function fillSecrets(bundle: readonly BundleItem[], target: readonly BundleItem[]): BundleItem[] {
  const byId = new Map(target.map((t) => [t.id, t.content.config]));
  return bundle.map((item) => ({ id: item.id, content: { ...item.content, config: fill(item.content.config, byId.get(item.id)) } }));
}
