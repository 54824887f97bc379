import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** What one block did: its output, the HTTP statuses its curl calls got, the commands that failed. */
export interface BlockResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  statuses: number[];
  /** `<line>: <command>` of each command that failed (bash's ERR trap), line within the block. */
  failed: string[];
}

/**
 * Observes, never changes, what curl does: each call's final HTTP status is appended to a log the
 * test reads after the block (0 when there was no answer). Each call keeps its headers in a file
 * of its own: the curls of one pipeline (`curl … | jq … | curl … -d @-`) run at the same time. Variables and functions the page
 * defines live on between its blocks because they run in this one shell, as a reader's would.
 */
const PRELUDE = `
curl() {
  local headers rc status
  headers=$(mktemp "$DOCS_RUN_DIR/.headers.XXXXXX")
  command curl -D "$headers" "$@"
  rc=$?
  status=$(grep -a '^HTTP/' "$headers" 2>/dev/null | tail -n 1 | cut -d' ' -f2)
  rm -f "$headers"
  echo "\${status:-0}" >> "$DOCS_RUN_DIR/.statuses"
  return $rc
}
trap '[[ $BASH_COMMAND == "source $DOCS_RUN_DIR/"* || $BASH_COMMAND == "node $DOCS_RUN_DIR/"* ]] || echo "$LINENO: $BASH_COMMAND" >> "$DOCS_RUN_DIR/.failed"' ERR
`;

/** A bash process a page's blocks run in, one after the other, in a scratch working directory. */
export class ShellSession {
  readonly dir = mkdtempSync(join(tmpdir(), 'docs-run-'));
  private readonly bash: ChildProcessWithoutNullStreams;
  private buffered = '';
  private waiting: { marker: string; resolve: (code: number) => void } | undefined;
  private count = 0;

  constructor(env: Record<string, string>) {
    this.bash = spawn('bash', ['--noprofile', '--norc'], {
      cwd: this.dir,
      env: { ...env, DOCS_RUN_DIR: this.dir },
      detached: true,
    });
    this.bash.stdout.setEncoding('utf8');
    this.bash.stdout.on('data', (chunk: string) => {
      this.buffered += chunk;
      const match = this.waiting && new RegExp(`${this.waiting.marker} (\\d+)`).exec(this.buffered);
      if (match && this.waiting) {
        const { resolve } = this.waiting;
        this.waiting = undefined;
        this.buffered = '';
        resolve(Number(match[1]));
      }
    });
    this.bash.stdin.write(PRELUDE);
  }

  /** Writes a file into the session's working directory (a page's `file=` block). */
  writeFile(name: string, text: string): void {
    const path = join(this.dir, name);
    if (!path.startsWith(`${this.dir}/`)) throw new Error(`file=${name} leaves the working directory`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Runs `source` as if typed into the shell; a JavaScript block runs as `node <file>.mjs`. */
  async run(source: string, kind: 'shell' | 'javascript', timeoutMs: number): Promise<BlockResult> {
    const n = ++this.count;
    const script = join(this.dir, `.block-${n}.${kind === 'shell' ? 'sh' : 'mjs'}`);
    writeFileSync(script, `${source}\n`);
    const out = join(this.dir, `.out-${n}`);
    const err = join(this.dir, `.err-${n}`);
    for (const log of ['.statuses', '.failed']) writeFileSync(join(this.dir, log), '');
    const command = kind === 'shell' ? `source ${script}` : `node ${script}`;
    const marker = `@@docs-block-done-${n}@@`;
    const exitCode = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`did not finish within ${timeoutMs / 1000} s`)), timeoutMs);
      this.waiting = {
        marker,
        resolve: (code) => {
          clearTimeout(timer);
          resolve(code);
        },
      };
      this.bash.stdin.write(`${command} > ${out} 2> ${err} < /dev/null; echo "${marker} $?"\n`);
    });
    const read = (name: string): string => readFileSync(join(this.dir, name), 'utf8');
    return {
      stdout: read(`.out-${n}`),
      stderr: read(`.err-${n}`),
      exitCode,
      statuses: read('.statuses').split('\n').filter(Boolean).map(Number),
      failed: read('.failed').split('\n').filter(Boolean),
    };
  }

  /** Ends the shell and whatever a page left running in the background (a worker), then the scratch directory. */
  close(): void {
    try {
      if (this.bash.pid) process.kill(-this.bash.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
