#!/usr/bin/env node
// `npm run test:file -- <path>…`: runs the named test files (their TypeScript source or compiled
// path, or a glob of either) in one process, after the compile the npm script ran, so `.only`,
// `--inspect` and a debugger work. Options after the paths go to mocha (`-g <pattern>`).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: npm run test:file -- <test file or glob>… [mocha options]');
  process.exit(2);
}
/** `test/x.test.ts` → `dist/test/x.test.js`; anything else (a compiled path, an option) stays as it is. */
const compiled = (arg) => (arg.endsWith('.ts') ? `dist/${arg.replace(/^\.\//, '').replace(/\.ts$/, '.js')}` : arg);
const mocha = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');
const run = spawnSync(process.execPath, [mocha, ...args.map(compiled)], {
  stdio: 'inherit',
  env: { ...process.env, TEST_GROUP: 'file' },
});
process.exit(run.status ?? 1);
