import type { MigrationResource } from '../migration/contract.js';
import type { Rule, RuleBody } from './rules.js';
import { RuleStore } from './rule-store.js';

/** What defines a rule, as a bundle carries it (no tenant, revision or timestamps). */
function contentOf(rule: Rule): Record<string, unknown> {
  return {
    name: rule.name,
    signal: rule.signal,
    selector: rule.selector,
    op: rule.op,
    threshold: rule.threshold,
    for_seconds: rule.for_seconds,
    severity: rule.severity,
    labels: rule.labels,
    annotations: rule.annotations,
    notify: rule.notify,
  };
}

/**
 * Alert rules as a promotion resource, contributed to the migration plugin's
 * `migration.resources` and written through the alerts plugin's own store (RuleStore), so a
 * promoted rule is the same as one made over the API: a new revision on change, its open alerts
 * resolved when it is deleted. Ordered after components, which a rule may notify.
 */
export const alertRuleResource: MigrationResource = {
  kind: 'alert_rules',
  order: 60,
  async export(db, tenantId) {
    const store = new RuleStore(db);
    const rules: Rule[] = [];
    for (let page = await store.list(tenantId, 500); page.length > 0; ) {
      rules.push(...page);
      page = page.length < 500 ? [] : await store.list(tenantId, 500, page[page.length - 1]?.id);
    }
    return rules.map((rule) => ({ id: rule.id, content: contentOf(rule) }));
  },
  async apply(trx, tenantId, changes, now) {
    const store = new RuleStore(trx);
    for (const item of changes.create) await store.insert(tenantId, item.id, item.content as unknown as RuleBody, now);
    for (const item of changes.update) {
      const current = await store.get(tenantId, item.id, true);
      if (current) await store.replace(current, item.content as unknown as RuleBody, now);
      else await store.insert(tenantId, item.id, item.content as unknown as RuleBody, now);
    }
    for (const id of changes.delete) await store.remove(tenantId, id);
  },
};
