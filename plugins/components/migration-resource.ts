import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import type { BundleItem, GateCheck, MigrationResource, PromotionContext } from '../migration/contract.js';
import type { ComponentsService } from './service.js';
import type { ComponentRow } from './store.js';

/** A secret config field in a bundle: never its value, a name the target must hold a value for. */
interface SecretPlaceholder {
  $secret: string;
}

function isPlaceholder(value: unknown): value is SecretPlaceholder {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as SecretPlaceholder).$secret === 'string' &&
    Object.keys(value).length === 1
  );
}

/** A bundled config without its secret placeholders: what the target stores in plain. */
function plainOf(config: unknown): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries((config ?? {}) as Record<string, unknown>).filter(([, v]) => !isPlaceholder(v)),
  );
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
 * fails the gate's `secrets_present` unless the apply sends it (`secrets`, by placeholder name),
 * and what the apply sends is sealed into the target's row in the apply's transaction. Both
 * sides export placeholders, so a component whose secrets differ between tenants is not an update.
 */
export function componentResource(service: ComponentsService): MigrationResource {
  /** The values sent for component `id`, by field. */
  function sent(id: string, context: PromotionContext): Record<string, unknown> {
    const prefix = `${id}:/`;
    return Object.fromEntries(
      Object.entries(context.secrets)
        .filter(([name]) => name.startsWith(prefix))
        .map(([name, value]) => [name.slice(prefix.length), value]),
    );
  }

  /**
   * The sealed columns after the sent values join what the target holds (nothing, for a create).
   * The component's whole config (plain and secret) must then fit its type, as at create: a sent
   * value of the wrong shape is a 400 naming it, and nothing of the apply is written.
   */
  async function sealedWith(
    trx: Knex.Transaction,
    tenantId: string,
    item: BundleItem,
    values: Record<string, unknown>,
  ): Promise<{ secrets: string; secret_fields: string[] } | undefined> {
    const id = item.id;
    if (Object.keys(values).length === 0) return undefined;
    const row = (await trx('components').where({ tenant_id: tenantId, id }).first('tenant_id', 'id', 'secrets')) as
      | Pick<ComponentRow, 'tenant_id' | 'id' | 'secrets'>
      | undefined;
    const all = { ...(row ? await service.openSecrets(row) : {}), ...values };
    const type = service.type(String(item.content.type));
    if (type) {
      try {
        service.schemas.check(type, { ...plainOf(item.content.config), ...all });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        throw new ApiError(
          'validation_error',
          `A secret sent for component "${id}" does not fit its type: ${err.message}`,
          {
            details: Object.keys(values).map((field) => ({
              in: 'body',
              pointer: `/secrets/${id}:~1${field}`,
              message: `with the rest of component ${id}'s config: ${err.message}`,
            })),
          },
        );
      }
    }
    return { secrets: await service.seal(all, { tenantId, id }), secret_fields: Object.keys(all).sort() };
  }

  return {
    kind: 'components',
    order: 30,
    async export(db, tenantId) {
      const rows = (await db('components').where({ tenant_id: tenantId }).orderBy('id')) as Array<
        Record<string, unknown>
      >;
      return rows.map((r) => {
        const id = String(r.id);
        const config: Record<string, unknown> = { ...((r.config ?? {}) as Record<string, unknown>) };
        for (const field of (r.secret_fields ?? []) as string[]) config[field] = placeholder(id, field);
        return {
          id,
          content: {
            type: r.type,
            name: r.name,
            description: r.description,
            tags: r.tags,
            stream: r.stream ?? null,
            config,
          },
        };
      });
    },
    checks(bundle, target, context) {
      return [secretsPresent(bundle, target, context)];
    },
    async apply(trx, tenantId, changes, now, context) {
      const plain = (config: unknown) => JSON.stringify(plainOf(config));
      for (const item of changes.create) {
        const c = item.content;
        await trx('components').insert({
          tenant_id: tenantId,
          id: item.id,
          type: c.type,
          name: c.name,
          description: c.description ?? '',
          state: 'stopped',
          desired_state: 'stopped',
          stream: c.stream ?? null,
          tags: c.tags ?? [],
          config: plain(c.config),
          revision: 1,
          created_at: now,
          updated_at: now,
        });
        const sealed = await sealedWith(trx, tenantId, item, sent(item.id, context));
        if (sealed) await trx('components').where({ tenant_id: tenantId, id: item.id }).update(sealed);
      }
      // Secrets stay as the target sealed them, but for those the apply sent (the gate made sure
      // each placeholder has one or the other).
      for (const item of changes.update) {
        const c = item.content;
        const sealed = await sealedWith(trx, tenantId, item, sent(item.id, context));
        await trx('components')
          .where({ tenant_id: tenantId, id: item.id })
          .update({
            type: c.type,
            name: c.name,
            description: c.description ?? '',
            stream: c.stream ?? null,
            tags: c.tags ?? [],
            config: plain(c.config),
            ...(sealed ?? {}),
            revision: trx.raw('revision + 1'),
            updated_at: now,
          });
      }
      if (changes.delete.length > 0)
        await trx('components').where({ tenant_id: tenantId }).whereIn('id', changes.delete).delete();
    },
  };
}

/**
 * The gate's `secrets_present`: every placeholder of the bundle is a sealed field of the
 * target's component of that id, or sent with the apply. What is missing is named, with how to
 * send it.
 */
function secretsPresent(
  bundle: readonly BundleItem[],
  target: readonly BundleItem[],
  context: PromotionContext,
): GateCheck {
  const byId = new Map(target.map((t) => [t.id, (t.content.config ?? {}) as Record<string, unknown>]));
  const missing: string[] = [];
  let count = 0;
  for (const item of bundle) {
    for (const [field, value] of Object.entries((item.content.config ?? {}) as Record<string, unknown>)) {
      if (!isPlaceholder(value)) continue;
      count++;
      if (!isPlaceholder(byId.get(item.id)?.[field]) && !(value.$secret in context.secrets))
        missing.push(value.$secret);
    }
  }
  return {
    check: 'secrets_present',
    ok: missing.length === 0,
    detail:
      missing.length === 0
        ? `${count} secret placeholder(s), each with a value on the target or sent with the apply`
        : `no value on the target for: ${missing.join(', ')}; send each with the apply, sealed into the target: {"secrets": {${missing.map((m) => `"${m}": "…"`).join(', ')}}}`,
    ...(missing.length > 0 ? { missing } : {}),
  };
}
