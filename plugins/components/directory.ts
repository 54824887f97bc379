import type { ComponentDirectory } from './contract.js';
import type { ComponentsService } from './service.js';
import { ComponentStore } from './store.js';

/**
 * Hands every receiver of `components.directory` the directory: components read through this
 * plugin's store, their secrets decrypted by the service.
 */
export function publishDirectory(
  service: ComponentsService,
  receivers: readonly { receive(directory: ComponentDirectory): void }[],
): void {
  const directory = service.directory(
    (d, tenantId, id) => new ComponentStore(d).get(tenantId, id),
    async (d, tenantId, ids) => (await new ComponentStore(d).stoppedAmong(tenantId, ids)).map((r) => r.id),
    (d, tenantId, id, state, error) => new ComponentStore(d).observe(tenantId, id, state, error),
  );
  for (const receiver of receivers) receiver.receive(directory);
}
