import { writeFileSync } from 'node:fs';
import { fromRoot } from '../../../../kernel/paths.js';
import { CLIENT_FILES, clientFiles, serverDocument } from './api-types.js';

// `npm run console:types`: regenerates the console's typed client from a freshly booted server.
const files = await clientFiles(await serverDocument());
for (const key of Object.keys(CLIENT_FILES) as Array<keyof typeof CLIENT_FILES>) {
  writeFileSync(fromRoot(CLIENT_FILES[key]), files[key]);
  process.stdout.write(`wrote ${CLIENT_FILES[key]}\n`);
}
process.exit(0);
