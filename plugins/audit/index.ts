import { fromRoot } from '../../kernel/paths.js';
import type { PluginDefinition } from '../../kernel/types.js';
import { auditHandlers } from './handlers.js';
import { createAudit } from './migrations/001_audit.js';
import { createAuditSink } from './sink.js';

/** The audit trail: the sink the kernel's audit step writes through, GET /audit and its verifier. */
const plugin: PluginDefinition = {
  id: 'audit',
  manifest: fromRoot('manifests', 'audit.json'),
  migrations: [createAudit],
  setup: () => ({ handlers: auditHandlers(), audit: createAuditSink() }),
};
export default plugin;
