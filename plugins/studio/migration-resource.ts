import type { Knex } from 'knex';
import type { Sandbox } from '../../kernel/plugin/api.js';
import type { BundleItem, MigrationGateCheck, MigrationResource } from '../migration/contract.js';
import type { FileMap } from './files.js';
import { testWorkspace } from './runner.js';
import { WorkspaceStore } from './store.js';

/**
 * Studio workspaces as a promotion resource: name, description and the files of the latest
 * revision. A changed workspace on the target gets the bundle's files as a new revision (its
 * history stays); collaborative documents are the target's own.
 */
export const workspaceResource: MigrationResource = {
  kind: 'workspaces',
  order: 50,
  async export(db, tenantId) {
    const store = new WorkspaceStore(db as Knex);
    const rows = (await db('studio_workspaces')
      .where({ tenant_id: tenantId })
      .orderBy('id')
      .select('id', 'name', 'description', 'revision')) as Array<{
      id: string;
      name: string;
      description: string;
      revision: number;
    }>;
    const out: BundleItem[] = [];
    for (const r of rows)
      out.push({
        id: r.id,
        content: {
          name: r.name,
          description: r.description,
          files: (await store.files(tenantId, r.id, r.revision)) ?? {},
        },
      });
    return out;
  },
  async apply(trx, tenantId, changes, now) {
    const store = new WorkspaceStore(trx as Knex);
    const revision = (files: FileMap) => ({
      files,
      changed: Object.keys(files),
      deleted: [],
      source: 'api' as const,
      createdBy: null,
    });
    for (const item of changes.create) {
      const c = item.content as { name: string; description?: string; files: FileMap };
      await store.insert(tenantId, item.id, { name: c.name, description: c.description ?? '' }, revision(c.files), now);
    }
    for (const item of changes.update) {
      const c = item.content as { name: string; description?: string; files: FileMap };
      const current = await store.get(tenantId, item.id, { forUpdate: true });
      if (!current) continue;
      await store.update(tenantId, item.id, { name: c.name, description: c.description ?? '' }, now);
      const before = await store.files(tenantId, item.id, current.revision);
      if (JSON.stringify(before) !== JSON.stringify(c.files))
        await store.appendRevision(tenantId, current, revision(c.files), now);
    }
    for (const id of changes.delete) await store.remove(tenantId, id);
  },
};

/**
 * The gate's `workspace_tests`: every workspace in the bundle has its tests (tests/*.json) run in
 * the sandbox on the bundle's exact files, as the target tenant; one failing case fails the check.
 */
export function workspaceTestsCheck(sandbox: () => Sandbox, maxCases: () => number): MigrationGateCheck {
  return {
    check: 'workspace_tests',
    async run(_db, bundle, targetTenantId) {
      const workspaces = bundle.resources.workspaces ?? [];
      if (workspaces.length === 0)
        return { check: 'workspace_tests', ok: true, detail: 'the bundle carries no workspaces' };
      const failures: string[] = [];
      let passed = 0;
      for (const w of workspaces) {
        const report = await testWorkspace(sandbox(), targetTenantId, (w.content.files ?? {}) as FileMap, {
          maxCases: maxCases(),
        });
        passed += report.passed;
        if (report.failed > 0)
          failures.push(
            `${w.id} (${report.cases
              .filter((c) => !c.ok)
              .map((c) => c.name)
              .join(', ')})`,
          );
      }
      return failures.length === 0
        ? {
            check: 'workspace_tests',
            ok: true,
            detail: `${passed} test case(s) of ${workspaces.length} workspace(s) passed on ${bundle.hash}`,
          }
        : { check: 'workspace_tests', ok: false, detail: `tests failed on ${bundle.hash} in: ${failures.join('; ')}` };
    },
  };
}
