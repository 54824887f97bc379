/** `settings.connectors`, generated from manifests/connectors.json (which has the schema and defaults). */
export type { Settings as ConnectorsSettings } from './generated/manifest-types.js';
