import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { BOOTSTRAP } from './bootstrap.js';
import { limitMessage } from './errors.js';
import { describeThrown } from './guest-error.js';
import { installModuleLoader, type LoaderState } from './module-loader.js';
import { randomFillSync } from 'node:crypto';
import { fromGuestJson } from './json.js';
import type { SandboxError, SandboxJob, SandboxLimit, SandboxLimits, SandboxResult } from './types.js';

/** Promise jobs run between two deadline checks (drain). */
const JOB_BATCH = 256;

/** Names a job's extra `globals` may not take: the contract's own. */
const RESERVED_GLOBALS = new Set(['input', 'service', 'console', 'result', 'globalThis']);
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A guest error raised on purpose inside a host function (the message is the guest's to see). */
class GuestThrow extends Error {}

/** The per-run state the host functions of a session write to. */
interface RunState extends LoaderState {
  limits: SandboxLimits;
  deadline: number;
  /** Set by a host function when the script passed a limit; the interrupt handler then stops it. */
  limit: SandboxLimit | undefined;
  /** The interrupt handler stopped the script (deadline, or a limit above). */
  interrupted: boolean;
  logs: string[];
  logBytes: number;
  pushed: string[];
  pushedBytes: number;
}

/**
 * A QuickJS runtime and context with the contract's globals installed. After each run the worker
 * resets it to its fresh state by restoring the memory snapshot taken right after it was built
 * (snapshot.ts): either way nothing a script does
 * (globals it sets, prototypes it changes, modules it loaded) outlives its run, so no state
 * crosses from one run — or tenant — to the next. Everything the host installs into the runtime
 * (interrupt handler, module loader, host functions) is therefore installed here, once, and
 * reads the running job through `state`: a reset puts the runtime's side of them back as it was.
 */
export class Session {
  readonly runtime: QuickJSRuntime;
  readonly context: QuickJSContext;
  private readonly setup: QuickJSHandle;
  private readonly serialize: QuickJSHandle;
  private state: RunState | undefined;

  constructor(quickjs: QuickJSWASMModule, options: { interruptHandler: boolean }) {
    this.runtime = quickjs.newRuntime();
    this.context = this.runtime.newContext();
    const ctx = this.context;
    installModuleLoader(this.runtime, () => this.state);
    if (options.interruptHandler) this.runtime.setInterruptHandler(() => this.interrupts());
    // The context's handles quickjs-emscripten makes on first use, made now so that they exist in a snapshot.
    void ctx.global;
    const hostPush = ctx.newFunction('push', (json) => this.push(ctx.getString(json)));
    const hostLog = ctx.newFunction('log', (line) => this.log(ctx.getString(line)));
    const hostUtf8 = ctx.newFunction('utf8', (buffer, offset, length) => this.utf8(buffer, offset, length));
    try {
      const factory = ctx.unwrapResult(ctx.evalCode(BOOTSTRAP, '<bootstrap>', { type: 'global' }));
      const pair = factory.consume((f) =>
        ctx.unwrapResult(ctx.callFunction(f, ctx.undefined, hostPush, hostLog, hostUtf8)),
      );
      this.setup = ctx.getProp(pair, 0);
      this.serialize = ctx.getProp(pair, 1);
      pair.dispose();
    } finally {
      hostPush.dispose();
      hostLog.dispose();
      hostUtf8.dispose();
    }
  }

  /** Polled by QuickJS while a script runs: stop it past its deadline or a limit it hit. */
  private interrupts(): boolean {
    const state = this.state;
    if (!state) return false;
    if (state.limit !== undefined || Date.now() > state.deadline) state.interrupted = true;
    return state.interrupted;
  }

  private current(): RunState {
    if (!this.state) throw new GuestThrow('the sandbox is not running');
    return this.state;
  }

  private push(json: string): void {
    const state = this.current();
    state.pushedBytes += json.length;
    // The values pushed are held until the run ends, so their size is bounded like the script's heap.
    if (state.pushed.length >= state.limits.pushes || state.pushedBytes > state.limits.memory_bytes) this.hit('pushes');
    state.pushed.push(json);
  }

  private log(line: string): void {
    const state = this.current();
    const room = state.limits.output_bytes - state.logBytes;
    const bytes = Buffer.byteLength(line) + 1;
    if (bytes > room) {
      if (room > 1)
        state.logs.push(
          Buffer.from(line)
            .subarray(0, room - 1)
            .toString(),
        );
      state.logBytes = state.limits.output_bytes;
      this.hit('output');
    }
    state.logs.push(line);
    state.logBytes += bytes;
  }

  private utf8(buffer: QuickJSHandle, offset: QuickJSHandle, length: QuickJSHandle): QuickJSHandle {
    const ctx = this.context;
    const start = ctx.getNumber(offset);
    const size = ctx.getNumber(length);
    const view = ctx.getArrayBuffer(buffer);
    try {
      const bytes = view.value;
      if (!Number.isInteger(start) || !Number.isInteger(size) || start < 0 || size < 0 || start + size > bytes.length)
        throw new GuestThrow('service.json.decode: bad byte range');
      return ctx.newString(Buffer.from(bytes.buffer, bytes.byteOffset + start, size).toString('utf8'));
    } finally {
      view.dispose();
    }
  }

  /** Marks a limit as hit and throws into the script; if it catches that, the interrupt handler stops it. */
  private hit(limit: SandboxLimit): never {
    const state = this.current();
    state.limit ??= limit;
    throw new GuestThrow(limitMessage(limit, limitValue(state.limits, limit)));
  }

  /** Runs one job. Everything the script does ends as a result; only a broken interpreter throws. */
  run(job: SandboxJob, limits: SandboxLimits): SandboxResult {
    const started = performance.now();
    const state: RunState = {
      files: job.files,
      refusals: new Map(),
      limits,
      deadline: Date.now() + limits.deadline_ms,
      limit: undefined,
      interrupted: false,
      logs: [],
      logBytes: 0,
      pushed: [],
      pushedBytes: 0,
    };
    this.state = state;
    const { runtime } = this;
    runtime.setMemoryLimit(limits.memory_bytes);
    runtime.setMaxStackSize(limits.stack_bytes);
    let outcome: { result?: string; error?: SandboxError };
    try {
      outcome = this.execute(job);
    } finally {
      this.state = undefined;
    }
    const finished: SandboxResult = {
      ok: false,
      pushed: state.pushed.map(fromGuestJson),
      logs: state.logs,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
    };
    let error = outcome.error;
    const refused = state.refusedImport;
    if (error && error.line === undefined && refused?.line !== undefined && error.message === refused.message)
      error = { ...error, file: refused.file, line: refused.line };
    const limit = state.limit ?? (state.interrupted ? 'deadline' : error?.limit);
    if (limit) {
      // The limit's own message; the line (where the script was when it was stopped) stays.
      error = { ...(error ?? {}), message: limitMessage(limit, limitValue(limits, limit)), limit };
    }
    if (error) {
      finished.error = error;
      return finished;
    }
    if (outcome.result !== undefined) {
      if (outcome.result.length > limits.output_bytes) {
        finished.error = {
          message: `the script's result passed the limit of ${limits.output_bytes} bytes`,
          limit: 'output',
        };
        return finished;
      }
      finished.result = fromGuestJson(outcome.result);
    }
    finished.ok = true;
    return finished;
  }

  private execute(job: SandboxJob): { result?: string; error?: SandboxError } {
    const ctx = this.context;
    const entry = job.entry ?? 'main.js';
    const invalid = this.install(job);
    if (invalid) return { error: { message: invalid } };
    if (!Object.hasOwn(job.files, entry)) return { error: { message: `no file ${entry} in the workspace` } };
    if (typeof job.files[entry] !== 'string') return { error: { message: `${entry} is not text` } };

    const evaluated = ctx.evalCode(job.files[entry] as string, entry, { type: 'module' });
    if (evaluated.error) return { error: this.describe(evaluated.error) };
    const settled = this.settle(evaluated.value, 'the script awaits a promise that never settles');
    if ('error' in settled) return settled;
    settled.value.dispose();

    let value: QuickJSHandle;
    if (job.expression !== undefined) {
      const expressed = ctx.evalCode(job.expression, '<expression>', { type: 'global' });
      if (expressed.error) return { error: this.describe(expressed.error) };
      value = expressed.value;
    } else {
      value = ctx.getProp(ctx.global, 'result');
    }
    const result = this.settle(value, '`result` is a promise that never settles');
    if ('error' in result) return result;
    const drained = this.drain();
    if (drained) {
      result.value.dispose();
      return { error: drained };
    }
    const json = result.value.consume((handle) => ctx.callFunction(this.serialize, ctx.undefined, handle));
    if (json.error) return { error: this.describe(json.error) };
    return json.value.consume((handle) => (ctx.typeof(handle) === 'string' ? { result: ctx.getString(handle) } : {}));
  }

  /** Sets `input` and the extra globals (JSON copied in); a message when the job is malformed. */
  private install(job: SandboxJob): string | undefined {
    const ctx = this.context;
    const globals = job.globals ?? {};
    for (const name of Object.keys(globals)) {
      if (!IDENTIFIER.test(name) || RESERVED_GLOBALS.has(name)) return `globals: "${name}" cannot be a global's name`;
    }
    const body = job.input?.body ?? null;
    const bytes = body instanceof Uint8Array ? body : undefined;
    const input = { body: bytes ? null : body, headers: job.input?.headers ?? {}, key: job.input?.key ?? null };
    let json: string;
    try {
      // A seed of its own for the run's Math.random (bootstrap.ts): a reset session would repeat the snapshot's.
      json = JSON.stringify({ input, globals, seed: Array.from(randomFillSync(new Uint32Array(4))) });
    } catch (err) {
      return `the job is not JSON: ${(err as Error).message}`;
    }
    const handles = [ctx.newString(json)];
    if (bytes) handles.push(ctx.newArrayBuffer(bytes.slice().buffer));
    try {
      const done = ctx.callFunction(this.setup, ctx.undefined, ...handles);
      if (done.error) return this.describe(done.error).message;
      done.value.dispose();
      return undefined;
    } finally {
      for (const handle of handles) handle.dispose();
    }
  }

  /**
   * Runs the promise jobs a value waits on. Nothing outside the guest can settle a promise (no
   * timers, no I/O), so one that is still pending once the job queue is empty never will.
   */
  private settle(handle: QuickJSHandle, pendingMessage: string): { value: QuickJSHandle } | { error: SandboxError } {
    const ctx = this.context;
    const first = ctx.getPromiseState(handle);
    if (first.type === 'fulfilled' && first.notAPromise) return { value: handle };
    const drained = this.drain();
    if (drained) {
      handle.dispose();
      return { error: drained };
    }
    const state = ctx.getPromiseState(handle);
    handle.dispose();
    if (state.type === 'fulfilled') return { value: state.value };
    if (state.type === 'rejected') return { error: this.describe(state.error) };
    return { error: { message: pendingMessage } };
  }

  /**
   * Executes every pending promise job, a batch at a time: the interpreter runs a batch in one
   * call without polling the interrupt handler between jobs (a job that only schedules the next
   * never loops), so the deadline is checked here between batches.
   */
  private drain(): SandboxError | undefined {
    const state = this.state;
    for (;;) {
      if (state && (state.limit !== undefined || Date.now() > state.deadline)) {
        state.interrupted = true;
        return { message: 'interrupted' };
      }
      const executed = this.runtime.executePendingJobs(JOB_BATCH);
      if (executed.error) return this.describe(executed.error);
      if (executed.value === 0) return undefined;
    }
  }

  /** Reads a thrown value out of the guest as plain data (and disposes it). */
  private describe(handle: QuickJSHandle): SandboxError {
    return describeThrown(this.context, handle);
  }
}

function limitValue(limits: SandboxLimits, limit: SandboxLimit): number {
  switch (limit) {
    case 'deadline':
      return limits.deadline_ms;
    case 'memory':
      return limits.memory_bytes;
    case 'stack':
      return limits.stack_bytes;
    case 'output':
      return limits.output_bytes;
    case 'pushes':
      return limits.pushes;
  }
}
