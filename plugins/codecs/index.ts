import { contribute, coreServices, createPlugin, fromRoot, inUseCheck } from '../../kernel/plugin/api.js';
import { migrationResources } from '../migration/contract.js';
import { codecResource } from './migration-resource.js';
import { builtInKinds, type AvroCompatibility } from './built-in-kinds.js';
import { codecKinds } from './contract.js';
import { codecHandlers } from './handlers.js';
import { KindRegistry } from './kind-registry.js';
import { createCodecs } from './migrations/001_codecs.js';
import { codecResolver, streamCodecs } from './stream-codecs.js';
import { sqlTables } from '../sql/contract.js';
import { codecSqlTables } from './sql-tables.js';

interface CodecSettings {
  avro_compatibility: AvroCompatibility;
}

/**
 * Codecs: how bytes become values and back. Offers the `codecs.kinds` extension point and
 * contributes its built-in kinds through it like any third party; gives the streams plugin its
 * codec resolver through `streams.codecs`.
 */
export default createPlugin<
  { clock: typeof coreServices.clock; extensions: typeof coreServices.extensions },
  CodecSettings
>({
  id: 'codecs',
  manifest: fromRoot('manifests', 'codecs.json'),
  migrations: [createCodecs],
  deps: { clock: coreServices.clock, extensions: coreServices.extensions },
  setup({ clock, extensions }, { settings }) {
    const kinds = new KindRegistry(extensions);
    return {
      handlers: codecHandlers(kinds, clock, inUseCheck(extensions)),
      offers: [codecKinds],
      contributions: [
        ...builtInKinds(settings.avro_compatibility).map((kind) => contribute(codecKinds, kind)),
        contribute(streamCodecs, codecResolver(kinds)),
        contribute(
          migrationResources,
          codecResource(() => extensions.all(codecKinds)),
        ),
        // The SQL console reads a tenant's codecs and their revisions.
        ...codecSqlTables.map((table) => contribute(sqlTables, table)),
      ],
      async start() {
        kinds.refuseClashes();
      },
    };
  },
});
