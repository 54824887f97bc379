// Mocha's settings for every way the suite runs (package.json's test scripts pick one by TEST_GROUP).
//
// Each test file boots its own kernels on their own schema (PostgreSQL) or in-memory database
// (PGlite), on port 0, with broker names of their own, so files run in parallel worker processes.
// The serial group runs afterwards, alone: files whose assertions measure time across real child
// processes (a signal's effect, a lease moving within its time, a killed worker's partitions
// taken over), which a loaded machine with two cores would turn into false failures.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const SERIAL = [
  'dist/test/kernel/process/**/*.test.js',
  'dist/test/kernel/jobs/two-kernels.test.js',
  'dist/test/plugins/workflows/faults.test.js',
  'dist/test/plugins/bpmn/kill.test.js',
  // Wall-clock bounds around scrypt (N = 2^17) sign-ins: a lifetime within 2 s of 15 minutes, a
  // lockout window of 2.5 s, answers timed alike. Four files at once on two cores stretch them.
  'dist/test/plugins/identity/sessions.test.js',
  'dist/test/plugins/identity/login-protection.test.js',
];

/** Every compiled test file with its text, in path order. */
function testFiles() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.js')) files.push({ path, text: readFileSync(path, 'utf8') });
    }
  };
  walk(join('dist', 'test'));
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Test files that boot no kernel and start no process: the fast loop (`npm run test:unit`). */
function unitFiles() {
  const boots = /startKernel|createKernel|runtimeKernel|startNode|spawnProcess|spawn\(|execFile|fork\(/;
  return testFiles()
    .filter((file) => !boots.test(file.text))
    .map((file) => file.path);
}

/**
 * The parallel group's files, those that drive a browser first: they are the longest by far
 * (minutes each), and started last they would run on alone after every other file had finished.
 * Mocha hands files to its workers in this order.
 */
function parallelFiles() {
  const serial = new Set(SERIAL.flatMap((pattern) => (pattern.includes('*') ? [] : [join(pattern)])));
  const serialFolders = SERIAL.filter((pattern) => pattern.includes('**')).map((pattern) => pattern.split('**')[0]);
  const files = testFiles().filter(
    (file) => !serial.has(file.path) && !serialFolders.some((folder) => file.path.startsWith(folder)),
  );
  const browser = (file) => /support\/browser\.js/.test(file.text);
  return [...files.filter(browser), ...files.filter((file) => !browser(file))].map((file) => file.path);
}

// 60 s: a before hook that boots a kernel on a loaded two-core machine (CI runs four files at once) can
// pass 30 s; a test that really hangs still fails, later.
const common = { require: ['dist/test/setup.js'], timeout: 60000, exit: true };
const jobs = Number(process.env.TEST_JOBS || 4);

const groups = {
  // Everything but the serial group, `jobs` files at a time (TEST_JOBS, 4 by default: most of a
  // file's time is spent waiting on a database, broker or timer, so two cores keep four busy).
  parallel: { spec: parallelFiles(), parallel: true, jobs },
  serial: { spec: SERIAL },
  unit: { spec: unitFiles(), parallel: true, jobs },
  // A file or glob given on the command line (`npm run test:file -- <path>`), in this process.
  file: {},
};

// Mocha adds files named on its command line to the config's spec: `npx mocha <file>` without a
// TEST_GROUP runs just those files, as before this config existed, not the whole suite besides.
const named = process.argv.slice(2).some((arg) => !arg.startsWith('-') && /\.[cm]?js$|\*/.test(arg));
const group = process.env.TEST_GROUP || (named ? 'file' : 'parallel');
if (!groups[group]) throw new Error(`TEST_GROUP=${group}: expected one of ${Object.keys(groups).join(', ')}`);
module.exports = { ...common, ...groups[group] };
