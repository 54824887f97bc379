/**
 * Docs that run: every runnable block of docs/getting-started.md and docs/tutorials/*.md runs, in
 * order, in one bash session per page, against a kernel started for that page (the local
 * profile's settings, admin password `try-it-out-pass-1` as the pages start the product) and the
 * real brokers on 127.0.0.1. The convention, for doc writers (also in docs/README.md):
 *
 * - ```sh / ```bash blocks run in the page's shell (variables carry from block to block);
 *   ```js blocks run with `node` as an ES module in the same working directory and see the shell's
 *   exported variables. A block of any language with `file=NAME` (```js file=worker.mjs,
 *   ```xml file=approval.bpmn) is only written to NAME in that directory, for a later block to use.
 * - ```<lang> no-run is never run (`npm start` itself, configuration for other programs).
 * - A block passes when it exits 0, no command in it fails, and every curl call answers below 400;
 *   ```sh expect-status=201,409 instead names the statuses of its curl calls, in order.
 * - A ```text block right after a runnable one (prose between is fine) is its output: each
 *   non-empty line must appear in what the block printed, in that order (`...` lines are skipped).
 * - ```sh retry: a read of something that happens shortly (a message through a workflow); the test
 *   runs it again, for up to 30 s, until its expectations hold. Readers may have to run it again too.
 * - `http://127.0.0.1:8080` is replaced by the test server's address, and the word `tutorial` where
 *   it begins a broker name (`tutorial/…`, `tutorial-…`, `tutorial.…`, `tutorial_…`: topics, client
 *   ids, queues, subjects) by `tutorial-<run id>`, so runs never share a broker name.
 *
 * A block that no longer does what the text says fails the page, naming file, line and why.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { expect } from 'chai';
import { deepMerge } from '../../kernel/config/load.js';
import { fromRoot, PROJECT_ROOT } from '../../kernel/paths.js';
import { startKernel, type TestKernel } from '../support/kernel.js';
import { runnableBlocksOf } from './support/blocks.js';
import { runPage } from './support/run-page.js';

const DOCS_ADMIN_PASSWORD = 'try-it-out-pass-1';

const pages = [
  fromRoot('docs', 'getting-started.md'),
  ...readdirSync(fromRoot('docs', 'tutorials'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => fromRoot('docs', 'tutorials', name)),
];

/** The local profile's settings (what `npm start` runs with), with the password the pages use. */
function localProfileOverrides(): Record<string, unknown> {
  const local = JSON.parse(readFileSync(fromRoot('config', 'local.json'), 'utf8')) as {
    settings?: Record<string, unknown>;
  };
  return {
    settings: deepMerge(local.settings ?? {}, { identity: { bootstrap: { admin_password: DOCS_ADMIN_PASSWORD } } }),
  };
}

describe('docs that run: getting started and the tutorials do what their text says', function () {
  this.timeout(600_000);

  it('finds the pages and their blocks (getting started and at least the four tutorials)', () => {
    for (const page of pages) {
      if (runnableBlocksOf(page).length === 0) throw new Error(`${relative(PROJECT_ROOT, page)} has no runnable block`);
    }
    if (pages.length < 5)
      throw new Error(`expected getting-started.md and four tutorials, found ${pages.length} pages`);
  });

  it('finds the programs the pages tell readers to install (curl, jq, mosquitto-clients, amqp-tools)', () => {
    const missing = ['curl', 'jq', 'mosquitto_pub', 'amqp-declare-queue', 'amqp-get', 'amqp-delete-queue'].filter(
      (program) => {
        try {
          execFileSync('bash', ['-c', `command -v ${program}`], { stdio: 'ignore' });
          return false;
        } catch {
          return true;
        }
      },
    );
    expect(missing, 'install them (Debian: apt install curl jq mosquitto-clients amqp-tools)').to.deep.equal([]);
  });

  for (const page of pages) {
    const name = relative(PROJECT_ROOT, page);
    it(`${name}: every block runs and prints what the text says`, async () => {
      let tk: TestKernel | undefined;
      try {
        tk = await startKernel(localProfileOverrides());
        await runPage(name, readFileSync(page, 'utf8'), { base: tk.url, runId: randomBytes(4).toString('hex') });
      } finally {
        await tk?.close();
      }
    });
  }
});
