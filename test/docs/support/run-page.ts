import { type RunnableBlock, runnableBlocks } from './blocks.js';
import { type BlockResult, ShellSession } from './shell-session.js';

/** The server address the pages write; the test puts its own there. */
export const DOCS_BASE = 'http://127.0.0.1:8080';
const BLOCK_TIMEOUT_MS = 90_000;

export interface PageRun {
  /** Where the test's server listens, put in place of DOCS_BASE. */
  base: string;
  /** Makes broker names of this run its own: `tutorial…` becomes `tutorial-<runId>…`. */
  runId: string;
  /** How long a `retry` block is run again before it fails (30 s). */
  retryForMs?: number;
}

export function substitute(text: string, run: PageRun): string {
  // Names that already carry the run id stay as they are, so substituting twice changes nothing.
  const brokerName = new RegExp(`\\btutorial(?=[-/._])(?!-${run.runId}\\b)`, 'g');
  return text.replaceAll(DOCS_BASE, run.base).replace(brokerName, `tutorial-${run.runId}`);
}

/** Why the block's result is not what the page says, or undefined when it is. */
function mismatch(block: RunnableBlock, result: BlockResult, expectedOutput: string[]): string | undefined {
  if (block.statuses) {
    if (JSON.stringify(result.statuses) !== JSON.stringify(block.statuses))
      return `HTTP statuses ${JSON.stringify(result.statuses)}, the page expects ${JSON.stringify(block.statuses)}`;
  } else {
    const bad = result.statuses.filter((status) => status === 0 || status >= 400);
    if (bad.length > 0)
      return `a curl call answered ${bad.join(', ')} (statuses in order: ${result.statuses.join(', ')})`;
  }
  if (result.failed.length > 0) return `a command failed: ${result.failed.join('; ')}`;
  if (result.exitCode !== 0) return `exit status ${result.exitCode}`;
  let from = 0;
  for (const line of expectedOutput) {
    const at = result.stdout.indexOf(line, from);
    if (at < 0) return `its output lacks (after what matched before): ${line}`;
    from = at + line.length;
  }
  return undefined;
}

async function runBlock(session: ShellSession, block: RunnableBlock, run: PageRun): Promise<string | undefined> {
  const source = substitute(block.source, run);
  if (block.kind === 'file' && block.file) {
    session.writeFile(substitute(block.file, run), source);
    return undefined;
  }
  const expected = block.output.map((line) => substitute(line, run));
  const deadline = Date.now() + (block.retry ? (run.retryForMs ?? 30_000) : 0);
  for (;;) {
    const result = await session.run(source, block.kind === 'shell' ? 'shell' : 'javascript', BLOCK_TIMEOUT_MS);
    const why = mismatch(block, result, expected);
    if (!why) return undefined;
    if (Date.now() >= deadline)
      return `${why}\n--- stdout ---\n${result.stdout.slice(-3000)}\n--- stderr ---\n${result.stderr.slice(-2000)}`;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The environment a page's shell starts with: the reader's basics, none of the test's own settings. */
function readerEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'LANG', 'TERM']) {
    const value = process.env[key];
    if (value) env[key] = value;
  }
  return env;
}

/**
 * Runs the blocks of a Markdown page in order in one fresh shell; throws at the first that does not
 * do what the page says, naming `name:line` and why.
 */
export async function runPage(name: string, markdown: string, run: PageRun): Promise<void> {
  const blocks = runnableBlocks(markdown);
  const session = new ShellSession(readerEnvironment());
  try {
    for (const block of blocks) {
      let why: string | undefined;
      try {
        why = await runBlock(session, block, run);
      } catch (err) {
        why = err instanceof Error ? err.message : String(err);
      }
      if (why) throw new Error(`${name}:${block.line} (${block.kind} block): ${why}`);
    }
  } finally {
    session.close();
  }
}
