import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { ApiError } from '../../../kernel/errors.js';
import type { Sandbox, SandboxInput } from '../../../sandbox/types.js';
import type { FileCache } from '../file-cache.js';
import { bytesOf } from '../files.js';
import { DEFAULT_ENTRY, report, runWorkspace, sandboxInput, testWorkspace } from '../runner.js';
import { HELP, parseLine, type Command } from './commands.js';

/** One answer per line: JSON text. */
export interface TerminalReply {
  line: string;
  ok: boolean;
  output?: string;
  result?: unknown;
  error?: { message: string; line?: number; file?: string; limit?: string };
  /** Said when an expression was evaluated without main.js, because main.js failed on the input. */
  note?: string;
}

export interface TerminalContext {
  db: Knex;
  sandbox: Sandbox;
  cache: FileCache;
  logger: Logger;
  maxTestCases: number;
  /** Records a run, test or expression (a run counts as a write). */
  recordRun(command: 'run' | 'test' | 'expression', ok: boolean): Promise<void>;
}

/** Longest line the terminal takes. */
const MAX_LINE = 64 * 1024;

/** The input before any `run`: a null body, as a message without one. */
const NO_INPUT: SandboxInput = { body: null, headers: {}, key: null };

/** An entry that exists only so an expression can be evaluated in a workspace without main.js. */
const EMPTY_ENTRY = '.terminal-entry.js';

function isRunning(command: Command): boolean {
  return command.kind === 'run' || command.kind === 'test' || command.kind === 'expression';
}

/**
 * A terminal socket: each text message is a line, answered in order by one JSON message. The
 * workspace's files are read at their current revision for every line, so a save or a PUT
 * shows at once. `canRun` is false for viewers (studio:read): ls, cat and help only.
 */
export function terminalSession(
  context: TerminalContext,
  who: { tenantId: string; workspaceId: string; canRun: boolean },
) {
  const { tenantId, workspaceId, canRun } = who;
  /** The input of the session's last `run`, which expressions see too; none before the first run. */
  let lastInput: SandboxInput = NO_INPUT;
  const lastRunInput = (): string =>
    lastInput === NO_INPUT ? 'no input (run it with `run <json>`)' : 'the last run’s input';

  async function answer(line: string): Promise<Omit<TerminalReply, 'line'>> {
    if (line.length > MAX_LINE) return { ok: false, error: { message: `A line is at most ${MAX_LINE} characters.` } };
    const command = parseLine(line);
    if (command.kind === 'empty') return { ok: true, output: '' };
    if (command.kind === 'help') return { ok: true, output: HELP };
    if (command.kind === 'shell') {
      return {
        ok: false,
        error: {
          message: `"${command.word}" is a shell command: this terminal is not an operating-system shell and runs none. Commands: ls, cat <path>, run [json], test, help, or a JavaScript expression.`,
        },
      };
    }
    if (isRunning(command) && !canRun)
      return {
        ok: false,
        error: { message: 'Running needs studio:write; this terminal is read-only (ls, cat, help).' },
      };
    const { revision, files } = await context.cache.current(context.db, tenantId, workspaceId);
    switch (command.kind) {
      case 'ls': {
        const prefix = command.prefix === '' ? '' : `${command.prefix}/`;
        const paths = Object.keys(files)
          .filter((p) => p.startsWith(prefix))
          .sort();
        return {
          ok: true,
          output: paths.map((p) => `${p}\t${bytesOf(files[p] as string)}`).join('\n'),
          result: { revision, files: paths },
        };
      }
      case 'cat': {
        if (!Object.hasOwn(files, command.path))
          return { ok: false, error: { message: `cat: ${command.path}: no such file (revision ${revision})` } };
        return { ok: true, output: files[command.path] as string };
      }
      case 'run': {
        let value: unknown;
        if (command.input !== undefined) {
          try {
            value = JSON.parse(command.input);
          } catch (err) {
            return { ok: false, error: { message: `run: the input is not JSON: ${(err as Error).message}` } };
          }
        }
        let run;
        try {
          const request = value === undefined ? {} : { input: { value } };
          run = await runWorkspace(context.sandbox, tenantId, files, request);
          lastInput = sandboxInput(request.input);
        } catch (err) {
          if (err instanceof ApiError) return { ok: false, error: { message: err.message } };
          throw err;
        }
        await context.recordRun('run', run.ok);
        return { ok: run.ok, output: run.logs.join('\n'), result: run, ...(run.error ? { error: run.error } : {}) };
      }
      case 'test': {
        const tested = await testWorkspace(context.sandbox, tenantId, files, { maxCases: context.maxTestCases });
        await context.recordRun('test', tested.failed === 0);
        const lines = tested.cases.map(
          (c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.name}${c.error ? `: ${c.error.message}` : ''}`,
        );
        lines.push(`${tested.passed} passed, ${tested.failed} failed`);
        return { ok: tested.failed === 0, output: lines.join('\n'), result: tested };
      }
      case 'expression': {
        // After main.js ran on the last `run`'s input (none yet: a null body), so its globals are
        // there. When main.js itself fails on that input (it decodes a body that is not there),
        // the expression is evaluated once more without main.js: `1 + 2` always answers, and the
        // note says what main.js did.
        const hasMain = Object.hasOwn(files, DEFAULT_ENTRY);
        const bare = {
          tenantId,
          files: { ...files, [EMPTY_ENTRY]: '' },
          entry: EMPTY_ENTRY,
          input: lastInput,
          expression: command.source,
        };
        let run = report(
          await context.sandbox.run(
            hasMain ? { tenantId, files, entry: DEFAULT_ENTRY, input: lastInput, expression: command.source } : bare,
          ),
        );
        let note: string | undefined;
        if (!run.ok && hasMain && run.error?.limit === undefined) {
          const alone = report(await context.sandbox.run(bare));
          if (alone.ok) {
            note = `(${DEFAULT_ENTRY} failed on ${lastRunInput()}: ${run.error?.message}; evaluated without running it — \`run <json>\` gives it an input)`;
            run = alone;
          }
        }
        await context.recordRun('expression', run.ok);
        return {
          ok: run.ok,
          output: [...(note ? [note] : []), ...run.logs, ...(run.ok ? [JSON.stringify(run.result)] : [])].join('\n'),
          result: run.result,
          ...(run.error ? { error: run.error } : {}),
          ...(note ? { note } : {}),
        };
      }
    }
  }

  return (socket: WebSocket): void => {
    let chain = Promise.resolve();
    const reply = (message: TerminalReply) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
    };
    socket.send(JSON.stringify({ ready: true, workspace_id: workspaceId, can_run: canRun, help: HELP }));
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      const line = isBinary
        ? ''
        : (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)).toString('utf8');
      chain = chain.then(async () => {
        if (isBinary) return reply({ line: '', ok: false, error: { message: 'The terminal takes text lines.' } });
        try {
          reply({ line, ...(await answer(line)) });
        } catch (err) {
          if (err instanceof ApiError && err.status < 500)
            return reply({ line, ok: false, error: { message: err.message } });
          context.logger.error({ err, workspace: workspaceId }, 'terminal line failed');
          reply({ line, ok: false, error: { message: 'The line could not be run (internal error); try again.' } });
        }
      });
    });
  };
}
