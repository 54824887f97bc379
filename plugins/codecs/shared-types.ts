import type { Knex } from 'knex';
import { externalNames, inlineSharedTypes, namedDefinitions, type SharedType } from './kinds/avro/references.js';
import { schemaRefusal } from './refusals.js';
import { CodecStore } from './store.js';

/**
 * An Avro schema may use named types another Avro codec of the tenant defines (a field of type
 * `"com.example.Address"`), as a schema registry's references allow. They are copied in when
 * the codec is saved, so the stored schema stands alone and stays as it was saved (pinned) when
 * the defining codec changes later; saving the codec again takes the new definition. Other
 * kinds, and schemas that define everything they use, are returned as they are.
 */
export async function withSharedTypes(
  db: Knex | Knex.Transaction,
  tenantId: string,
  codecId: string,
  kind: string,
  schema: unknown,
): Promise<unknown> {
  if (kind !== 'avro' || schema === undefined || schema === null) return schema;
  if (externalNames(schema).length === 0) return schema;
  const shared = new Map<string, SharedType[]>();
  const store = new CodecStore(db);
  for (let page = await store.list(tenantId, { fetch: 500, kind: 'avro' }); page.length > 0; ) {
    for (const codec of page) {
      if (codec.id === codecId) continue;
      for (const [name, definition] of namedDefinitions(codec.schema))
        shared.set(name, [...(shared.get(name) ?? []), { codec: codec.id, definition }]);
    }
    const last = page[page.length - 1]?.id;
    page =
      page.length < 500 || last === undefined
        ? []
        : await store.list(tenantId, { fetch: 500, kind: 'avro', afterId: last });
  }
  try {
    return inlineSharedTypes(schema, shared);
  } catch (error) {
    throw schemaRefusal(error);
  }
}
