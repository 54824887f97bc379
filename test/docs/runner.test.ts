import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { runnableBlocks } from './support/blocks.js';
import { runPage, substitute } from './support/run-page.js';

// Not a unit test: each page runs in a bash process (ShellSession's spawn()), so the fast loop
// (`npm run test:unit`, which leaves out files that start processes) does not pick this file.
const fence = '```';

/** A page made of `parts`, each either prose or [info string, body]. */
function page(...parts: Array<string | [string, string]>): string {
  return parts
    .map((part) => (typeof part === 'string' ? part : `${fence}${part[0]}\n${part[1]}\n${fence}`))
    .join('\n\n');
}

async function failureOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  throw new Error('expected the page to fail');
}

describe('docs that run: the block runner holds pages to what their text says', function () {
  this.timeout(60_000);
  let server: Server;
  let base: string;
  let laterCalls = 0;

  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/ok') res.writeHead(200).end('hello\n');
      else if (req.url === '/created' && req.method === 'POST') res.writeHead(201).end('{"id":"x"}\n');
      else if (req.url === '/later') {
        laterCalls++;
        if (laterCalls >= 3) res.writeHead(200).end('ready\n');
        else res.writeHead(404).end('not yet\n');
      } else res.writeHead(404).end('{"error":{"code":"not_found"}}\n');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('reads info strings: no-run skipped, file=, expect-status, retry, the text block after a runnable one', () => {
    const blocks = runnableBlocks(
      page(
        ['sh no-run', 'npm start'],
        ['sh expect-status=201,404 retry', 'curl x'],
        'prose between a block and its output is fine',
        ['text', 'line one\n\n...\nline two'],
        ['xml file=model.bpmn', '<definitions/>'],
        ['json', '{"not": "run"}'],
      ),
    );
    expect(
      blocks.map((b) => ({ kind: b.kind, statuses: b.statuses, retry: b.retry, output: b.output, file: b.file })),
    ).to.deep.equal([
      { kind: 'shell', statuses: [201, 404], retry: true, output: ['line one', 'line two'], file: undefined },
      { kind: 'file', statuses: undefined, retry: false, output: [], file: 'model.bpmn' },
    ]);
    expect(
      substitute('curl http://127.0.0.1:8080/x; mosquitto_pub -t tutorial/a -i tutorial-b; tutorials', {
        base: 'http://h:1',
        runId: 'r9',
      }),
    ).to.equal('curl http://h:1/x; mosquitto_pub -t tutorial-r9/a -i tutorial-r9-b; tutorials');
    expect(() => runnableBlocks(page(['sh expect-staus=200', 'true']))).to.throw(
      /line 1: unknown flag "expect-staus=200"/,
    );
  });

  it('runs a page in one shell: variables carry over, files are written, JavaScript sees exported variables, the server address and broker names are the run’s', async () => {
    await runPage(
      'good.md',
      page(
        ['sh', 'B=http://127.0.0.1:8080\nGREETING=$(curl -s $B/ok)\nexport GREETING'],
        ['js file=lib/greet.mjs', 'export const greet = (who) => process.env.GREETING + ", " + who;'],
        ['js', "const { greet } = await import('./lib/greet.mjs');\nconsole.log(greet('reader'));"],
        ['text', 'hello, reader'],
        ['sh expect-status=201,404', 'curl -s -X POST $B/created\ncurl -s $B/nothing-here'],
        ['text', '{"id":"x"}\n{"error":{"code":"not_found"}}'],
        ['sh', 'echo "topic tutorial/sensors/# queue tutorial.orders" > names.txt; cat names.txt'],
        ['text', 'topic tutorial/sensors/# queue tutorial.orders'],
        ['sh', 'grep -c "topic tutorial-run1/sensors/# queue tutorial-run1.orders" names.txt'],
        ['text', '1'],
      ),
      { base, runId: 'run1' },
    );
  });

  it('fails naming the page and the line of a block whose output is not what the text says', async () => {
    const message = await failureOf(
      runPage('docs/x.md', page('# X', ['sh', `curl -s ${'http://127.0.0.1:8080'}/ok`], ['text', 'goodbye']), {
        base,
        runId: 'r',
      }),
    );
    expect(message).to.match(/^docs\/x\.md:3 \(shell block\): its output lacks \(after what matched before\): goodbye/);
    expect(message).to.include('hello');
  });

  it('fails a block with a curl call answering 400 or more, or a failing command, unless expect-status says so', async () => {
    const notFound = await failureOf(runPage('p.md', page(['sh', `curl -s ${base}/missing`]), { base, runId: 'r' }));
    expect(notFound).to.match(/^p\.md:1 \(shell block\): a curl call answered 404/);
    const failed = await failureOf(runPage('p.md', page(['sh', 'echo one\nfalse\necho three']), { base, runId: 'r' }));
    expect(failed).to.match(/^p\.md:1 \(shell block\): a command failed: 2: false/);
    const wrongStatus = await failureOf(
      runPage('p.md', page(['sh expect-status=404', `curl -s ${base}/ok`]), { base, runId: 'r' }),
    );
    expect(wrongStatus).to.match(/HTTP statuses \[200\], the page expects \[404\]/);
  });

  it('runs a retry block again until it does what the text says', async () => {
    laterCalls = 0;
    await runPage('p.md', page(['sh retry', `curl -s ${base}/later`], ['text', 'ready']), { base, runId: 'r' });
    expect(laterCalls).to.equal(3);
    const never = await failureOf(
      runPage('p.md', page(['sh retry', 'echo not yet'], ['text', 'ready']), { base, runId: 'r', retryForMs: 1200 }),
    );
    expect(never).to.match(/^p\.md:1 \(shell block\): its output lacks/);
  });
});
