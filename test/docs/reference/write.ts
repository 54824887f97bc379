import { writeFileSync } from 'node:fs';
import { fromRoot } from '../../../kernel/paths.js';
import { referencePages } from './pages.js';
import { referenceSources } from './sources.js';

// `npm run docs:reference`: regenerates docs/reference/ from a freshly booted server;
// test/docs/reference.test.ts fails while a committed page differs.
const pages = referencePages(await referenceSources());
for (const [path, text] of Object.entries(pages)) {
  writeFileSync(fromRoot(path), text);
  process.stdout.write(`wrote ${path}\n`);
}
process.exit(0);
