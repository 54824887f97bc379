// `npm run admin -- <command> [arguments]`: operator commands the plugins offer (kernel/admin).
// Builds the TypeScript when needed, like `npm start`.
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from './ensure-build.mjs';

await import(pathToFileURL(ensureBuilt('kernel/admin/main.js')).href);
