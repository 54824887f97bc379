import type { Knex } from 'knex';
import type { MigrationResource } from '../migration/contract.js';
import type { BpmnService } from './service.js';

/**
 * BPMN definitions as a promotion resource, contributed to the migration plugin's
 * `migration.resources`. Every version of every process goes, oldest first, so the target holds
 * the versions its instances and callers may name; a version is identified across tenants by
 * its process and the hash of its XML (`<process_id>@<xml_hash>`): version numbers are the
 * target's own, given by the same deploy as `POST /bpmn/definitions` in the order the source
 * made them. Definitions never change, so there are no updates; a version the bundle lacks is
 * deleted (with `allow_destructive`) unless an instance of the target still runs on it.
 */
export function bpmnDefinitionResource(service: BpmnService): MigrationResource {
  return {
    kind: 'bpmn_definitions',
    order: 45,
    async export(db, tenantId) {
      const rows = (await db('bpmn_definitions')
        .where({ tenant_id: tenantId })
        .orderBy(['process_id', 'version'])
        .select('process_id', 'name', 'xml_hash', 'xml')) as Array<{
        process_id: string;
        name: string | null;
        xml_hash: string;
        xml: string;
      }>;
      return rows.map((r) => ({
        id: `${r.process_id}@${r.xml_hash}`,
        content: { process_id: r.process_id, name: r.name, xml: r.xml },
      }));
    },
    async apply(trx, tenantId, changes) {
      for (const item of [...changes.create, ...changes.update])
        await service.deploy(trx, tenantId, String(item.content.xml));
      for (const id of changes.delete) {
        const at = id.lastIndexOf('@');
        await deleteUnused(trx, tenantId, id.slice(0, at), id.slice(at + 1));
      }
    },
  };
}

async function deleteUnused(trx: Knex.Transaction, tenantId: string, processId: string, hash: string): Promise<void> {
  await trx('bpmn_definitions')
    .where({ tenant_id: tenantId, process_id: processId, xml_hash: hash })
    .whereNotExists(
      trx('bpmn_instances')
        .where('bpmn_instances.tenant_id', tenantId)
        .whereRaw('bpmn_instances.definition_key = bpmn_definitions.key'),
    )
    .delete();
}
