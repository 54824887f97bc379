import { isAbsolute } from 'node:path';
import { createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { BuiltFiles } from './files.js';
import type { Settings } from './generated/manifest-types.js';
import { consoleHandlers } from './handlers.js';

/**
 * The web console: serves the single-page app built from `plugins/console/app` (Vite writes it to
 * `app/dist`; `npm start` builds it when stale). The app signs in with the identity plugin's
 * browser routes (`/auth/browser/*`) and then calls the same API as every other client.
 */
export default createPlugin<Record<string, never>, Settings>({
  id: 'console',
  manifest: fromRoot('manifests', 'console.json'),
  deps: {},
  setup(_services, { settings }) {
    const dir = settings.dist_dir ?? 'plugins/console/app/dist';
    return { handlers: consoleHandlers(new BuiltFiles(isAbsolute(dir) ? dir : fromRoot(dir))) };
  },
});
