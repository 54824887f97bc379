// `npm start`: builds the TypeScript when needed, then runs the kernel in this same process (the
// start script execs node, so a SIGTERM sent to npm is forwarded straight to this process).
import { pathToFileURL } from 'node:url';
import { ensureAssets } from './ensure-assets.mjs';
import { ensureBuilt } from './ensure-build.mjs';
import { stopWithParent } from './parent-watch.mjs';

// Under npm the server lives as long as npm does: a shell that does not forward signals, or an
// npm killed outright, must not leave a server running (and holding its data directory) unseen.
if (process.env.npm_lifecycle_event) stopWithParent('npm');

const main = ensureBuilt('kernel/main.js');
ensureAssets();
await import(pathToFileURL(main).href);
