import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fromRoot } from '../../../kernel/paths.js';
import { generatedModules } from './generate.js';

// `npm run types:generate`: rewrites every plugin's types generated from its manifest.
for (const [path, text] of generatedModules()) {
  mkdirSync(dirname(fromRoot(path)), { recursive: true });
  writeFileSync(fromRoot(path), text);
  process.stdout.write(`wrote ${path}\n`);
}
