import type { BundleItem, GateCheck, MigrationResource } from '../migration/contract.js';

/** A secret config field in a bundle: never its value, a name the target must hold a value for. */
interface SecretPlaceholder {
  $secret: string;
}

function isPlaceholder(value: unknown): value is SecretPlaceholder {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as SecretPlaceholder).$secret === 'string' && Object.keys(value).length === 1;
}

/** The placeholder for a component's secret field: `<component>:/<field>`. */
function placeholder(id: string, field: string): SecretPlaceholder {
  return { $secret: `${id}:/${field}` };
}

/**
 * Components (type, definition and plain configuration; never their running state: promoted
 * components start stopped, and never their secrets) as a promotion resource. The fields their
 * type marks `x-secret` are sealed apart (`secrets`, named in `secret_fields`); they leave as
 * placeholders, and the target keeps its own sealed values: a placeholder it has no value for
 * fails the gate's `secrets_present`. Both sides export placeholders, so a component whose
 * secrets differ between tenants is not an update.
 */
export const componentResource: MigrationResource = {
  kind: 'components',
  order: 30,
  async export(db, tenantId) {
    const rows = (await db('components').where({ tenant_id: tenantId }).orderBy('id')) as Array<Record<string, unknown>>;
    return rows.map((r) => {
      const id = String(r.id);
      const config: Record<string, unknown> = { ...((r.config ?? {}) as Record<string, unknown>) };
      for (const field of (r.secret_fields ?? []) as string[]) config[field] = placeholder(id, field);
      return { id, content: { type: r.type, name: r.name, description: r.description, tags: r.tags, stream: r.stream ?? null, config } };
    });
  },
  checks(bundle, target) {
    return [secretsPresent(bundle, target)];
  },
  async apply(trx, tenantId, changes, now) {
    const plain = (config: unknown) => JSON.stringify(Object.fromEntries(Object.entries((config ?? {}) as Record<string, unknown>).filter(([, v]) => !isPlaceholder(v))));
    for (const item of changes.create) {
      const c = item.content;
      await trx('components').insert({ tenant_id: tenantId, id: item.id, type: c.type, name: c.name, description: c.description ?? '', state: 'stopped', desired_state: 'stopped', stream: c.stream ?? null, tags: c.tags ?? [], config: plain(c.config), revision: 1, created_at: now, updated_at: now });
    }
    // Secrets stay as the target sealed them (the gate made sure each placeholder has one).
    for (const item of changes.update) {
      const c = item.content;
      await trx('components').where({ tenant_id: tenantId, id: item.id }).update({ type: c.type, name: c.name, description: c.description ?? '', stream: c.stream ?? null, tags: c.tags ?? [], config: plain(c.config), revision: trx.raw('revision + 1'), updated_at: now });
    }
    if (changes.delete.length > 0) await trx('components').where({ tenant_id: tenantId }).whereIn('id', changes.delete).delete();
  },
};

/** The gate's `secrets_present`: every placeholder of the bundle is a sealed field of the target's component of that id. */
function secretsPresent(bundle: readonly BundleItem[], target: readonly BundleItem[]): GateCheck {
  const byId = new Map(target.map((t) => [t.id, (t.content.config ?? {}) as Record<string, unknown>]));
  const missing: string[] = [];
  let count = 0;
  for (const item of bundle) {
    for (const [field, value] of Object.entries((item.content.config ?? {}) as Record<string, unknown>)) {
      if (!isPlaceholder(value)) continue;
      count++;
      if (!isPlaceholder(byId.get(item.id)?.[field])) missing.push(value.$secret);
    }
  }
  return { check: 'secrets_present', ok: missing.length === 0, detail: missing.length === 0 ? `${count} secret placeholder(s), each with a value on the target` : `no value on the target for: ${missing.join(', ')}` };
}
