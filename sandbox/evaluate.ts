import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { BOOTSTRAP } from './bootstrap.js';
import { limitMessage, limitOf, sandboxError, type GuestError } from './errors.js';
import { fromGuestJson } from './json.js';
import { loadModule, normalizeModule } from './modules.js';
import type { SandboxError, SandboxJob, SandboxLimit, SandboxLimits, SandboxResult } from './types.js';

/** Promise jobs run between two deadline checks (drain). */
const JOB_BATCH = 256;
/** Longest message or stack (in characters) read out of a thrown value. */
const MAX_ERROR_TEXT = 1024 * 1024;

/** Names a job's extra `globals` may not take: the contract's own. */
const RESERVED_GLOBALS = new Set(['input', 'service', 'console', 'result', 'globalThis']);
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A guest error raised on purpose inside a host function (the message is the guest's to see). */
class GuestThrow extends Error {}

/** The per-run state the host functions of a session write to. */
interface RunState {
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
  refusedImport?: { message: string; file: string; line: number | undefined };
}

/**
 * One fresh QuickJS runtime and context with the contract's globals installed, used for exactly
 * one run and then disposed: nothing a script does (globals it sets, prototypes it changes,
 * modules it loaded) can outlive its run, so no state crosses from one run — or tenant — to the
 * next. Building one costs well under a millisecond once the WebAssembly module is loaded, and
 * the worker builds the next session while idle (worker.ts), so a run does not wait for it.
 */
export class Session {
  readonly runtime: QuickJSRuntime;
  readonly context: QuickJSContext;
  private readonly setup: QuickJSHandle;
  private readonly serialize: QuickJSHandle;
  private state: RunState | undefined;

  constructor(quickjs: QuickJSWASMModule) {
    this.runtime = quickjs.newRuntime();
    this.context = this.runtime.newContext();
    const ctx = this.context;
    const hostPush = ctx.newFunction('push', (json) => this.push(ctx.getString(json)));
    const hostLog = ctx.newFunction('log', (line) => this.log(ctx.getString(line)));
    const hostUtf8 = ctx.newFunction('utf8', (buffer, offset, length) => this.utf8(buffer, offset, length));
    try {
      const factory = ctx.unwrapResult(ctx.evalCode(BOOTSTRAP, '<bootstrap>', { type: 'global' }));
      const pair = factory.consume((f) => ctx.unwrapResult(ctx.callFunction(f, ctx.undefined, hostPush, hostLog, hostUtf8)));
      this.setup = ctx.getProp(pair, 0);
      this.serialize = ctx.getProp(pair, 1);
      pair.dispose();
    } finally {
      hostPush.dispose();
      hostLog.dispose();
      hostUtf8.dispose();
    }
  }

  dispose(): void {
    this.setup.dispose();
    this.serialize.dispose();
    this.context.dispose();
    this.runtime.dispose();
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
      if (room > 1) state.logs.push(Buffer.from(line).subarray(0, room - 1).toString());
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
      if (!Number.isInteger(start) || !Number.isInteger(size) || start < 0 || size < 0 || start + size > bytes.length) throw new GuestThrow('service.json.decode: bad byte range');
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
  run(job: SandboxJob, limits: SandboxLimits, options: { interruptHandler: boolean }): SandboxResult {
    const started = performance.now();
    const state: RunState = { limits, deadline: Date.now() + limits.deadline_ms, limit: undefined, interrupted: false, logs: [], logBytes: 0, pushed: [], pushedBytes: 0 };
    this.state = state;
    const { runtime } = this;
    const refusals = new Map<string, string>();
    runtime.setMemoryLimit(limits.memory_bytes);
    runtime.setMaxStackSize(limits.stack_bytes);
    runtime.setModuleLoader(
      (name) => {
        const refused = refusals.get(name);
        if (refused !== undefined) return { error: new Error(refused) };
        try {
          return loadModule(job.files, name);
        } catch (err) {
          return { error: err as Error };
        }
      },
      (base, requested) => {
        // QuickJS drops a normalizer's error for a dynamic import(); the loader reports it instead.
        try {
          return normalizeModule(job.files, base, requested);
        } catch (err) {
          const message = (err as Error).message;
          const token = `<refused import ${refusals.size + 1}>`;
          refusals.set(token, message);
          // A static import fails while linking, with no stack: remember where the specifier is written.
          state.refusedImport ??= { message, file: base, line: lineOf(job.files[base], requested) };
          return token;
        }
      },
    );
    if (options.interruptHandler) {
      runtime.setInterruptHandler(() => {
        if (state.limit !== undefined || Date.now() > state.deadline) state.interrupted = true;
        return state.interrupted;
      });
    }
    let outcome: { result?: string; error?: SandboxError };
    try {
      outcome = this.execute(job);
    } finally {
      this.state = undefined;
    }
    const finished: SandboxResult = { ok: false, pushed: state.pushed.map(fromGuestJson), logs: state.logs, duration_ms: Math.round((performance.now() - started) * 100) / 100 };
    let error = outcome.error;
    const refused = state.refusedImport;
    if (error && error.line === undefined && refused?.line !== undefined && error.message === refused.message) error = { ...error, file: refused.file, line: refused.line };
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
        finished.error = { message: `the script's result passed the limit of ${limits.output_bytes} bytes`, limit: 'output' };
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
      json = JSON.stringify({ input, globals });
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
    const ctx = this.context;
    const guest: GuestError = { message: '' };
    try {
      if (ctx.typeof(handle) === 'object') {
        const read = (key: string): unknown => ctx.getProp(handle, key).consume((h) => {
          const type = ctx.typeof(h);
          if (type === 'number') return ctx.getNumber(h);
          if (type !== 'string') return undefined;
          // A string's length is read without copying it; a huge one (a script's doing) is not worth copying out.
          const length = ctx.getProp(h, 'length').consume((l) => ctx.getNumber(l));
          return length > MAX_ERROR_TEXT ? undefined : ctx.getString(h);
        });
        const name = read('name');
        const message = read('message');
        const stack = read('stack');
        const fileName = read('fileName');
        const lineNumber = read('lineNumber');
        if (typeof name === 'string') guest.name = name;
        guest.message = typeof message === 'string' ? message : 'the script threw an object without a readable message';
        if (typeof stack === 'string') guest.stack = stack.slice(0, 4000);
        if (typeof fileName === 'string') guest.fileName = fileName;
        if (typeof lineNumber === 'number') guest.lineNumber = lineNumber;
      } else {
        guest.message = `the script threw ${String(ctx.dump(handle)).slice(0, 2000)}`;
      }
    } catch {
      // Reading a property ran a getter that threw or was interrupted: the error stays nameless.
      guest.message ||= 'the script threw a value that cannot be read';
    } finally {
      handle.dispose();
    }
    return sandboxError(guest, limitOf(guest));
  }
}

/** The 1-based line where `specifier` is written (quoted) in `source`. */
function lineOf(source: string | undefined, specifier: string): number | undefined {
  if (source === undefined) return undefined;
  const lines = source.split('\n');
  const index = lines.findIndex((line) => line.includes(`'${specifier}'`) || line.includes(`"${specifier}"`));
  return index < 0 ? undefined : index + 1;
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
