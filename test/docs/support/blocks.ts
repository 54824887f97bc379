import { readFileSync } from 'node:fs';

/** Languages whose fenced blocks the docs test runs: a shell session's, or Node's. */
const SHELL = new Set(['sh', 'bash']);
const JAVASCRIPT = new Set(['js', 'javascript', 'mjs']);

/** One runnable fenced block of a page and what its text says it does. */
export interface RunnableBlock {
  /** 1-based line of the opening fence, for failure messages (`file:line`). */
  line: number;
  kind: 'shell' | 'javascript' | 'file';
  source: string;
  /** `file=NAME` on any block: written to NAME in the working directory, not run. */
  file?: string;
  /** `expect-status=201,200`: the HTTP statuses the block's curl calls answer, in order. */
  statuses?: number[];
  /** `retry`: a read the text says will show something soon; run again until it does. */
  retry: boolean;
  /** Lines of the ```text block that follows it: each must appear in its output, in order. */
  output: string[];
}

interface Fence {
  line: number;
  words: string[];
  body: string;
}

/** Every fenced block of a Markdown text (``` fences at the start of a line), in order. */
function fences(markdown: string): Fence[] {
  const found: Fence[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i] ?? '');
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i] ?? ''); i++) body.push(lines[i] ?? '');
    found.push({
      line: start + 1,
      words: (open[1] ?? '').trim().split(/\s+/).filter(Boolean),
      body: body.join('\n'),
    });
  }
  return found;
}

/**
 * The blocks of a page the docs test runs: ```sh, ```bash and ```js fences without `no-run`,
 * each with the expectations its info string and a following ```text fence give it, and fences
 * of any language with `file=NAME`, which the test writes to that file.
 */
export function runnableBlocks(markdown: string): RunnableBlock[] {
  const blocks: RunnableBlock[] = [];
  let last: RunnableBlock | undefined;
  for (const fence of fences(markdown)) {
    const [language = '', ...flags] = fence.words;
    if (language === 'text' && last) {
      last.output = fence.body
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '' && l !== '...');
      last = undefined;
      continue;
    }
    last = undefined;
    const file = flags.find((flag) => flag.startsWith('file='));
    const kind = file ? 'file' : SHELL.has(language) ? 'shell' : JAVASCRIPT.has(language) ? 'javascript' : undefined;
    if (!kind || flags.includes('no-run')) continue;
    const block: RunnableBlock = {
      line: fence.line,
      kind,
      source: fence.body,
      retry: flags.includes('retry'),
      output: [],
    };
    for (const flag of flags) {
      const [name = '', value = ''] = flag.split('=');
      if (name === 'file') block.file = value;
      else if (name === 'expect-status') block.statuses = value.split(',').map(Number);
      else if (name !== 'retry')
        throw new Error(`line ${fence.line}: unknown flag "${flag}" on a \`\`\`${language} block`);
    }
    blocks.push(block);
    last = block;
  }
  return blocks;
}

export function runnableBlocksOf(path: string): RunnableBlock[] {
  return runnableBlocks(readFileSync(path, 'utf8'));
}
