/**
 * A sandbox worker thread: loads the QuickJS WebAssembly module once, builds one session
 * (evaluate.ts), takes a snapshot of the memory as that fresh session left it (snapshot.ts), and
 * runs jobs one at a time, restoring the snapshot after each: every run starts in a session as
 * fresh as a new one, without paying to build one. If the interpreter ever fails in a way
 * QuickJS did not report as a script error (a host exception inside WebAssembly, an abort), the
 * worker answers and exits, and the pool starts a fresh one: no later run meets a damaged
 * interpreter.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { newQuickJSWASMModule, newVariant, RELEASE_SYNC, type QuickJSWASMModule } from 'quickjs-emscripten';
import { limitMessage } from './errors.js';
import { Session } from './evaluate.js';
import { MemorySnapshot } from './snapshot.js';
import type { RunRequest, RunsMessage, WorkerMessage, WorkerOptions } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('sandbox/worker.js runs only as a worker thread');
const options = workerData as WorkerOptions;
const PAGE = 64 * 1024;
// The interpreter's own memory limit does not count every allocation (ArrayBuffer contents
// escape it), so the worker's WebAssembly memory itself has a ceiling: past it malloc fails and
// QuickJS throws "out of memory" like at its own limit.
const { Memory } = (
  globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => object } }
).WebAssembly;
const memory = new Memory({ initial: 256, maximum: Math.ceil(options.memoryCapBytes / PAGE) }) as {
  buffer: ArrayBuffer;
};
const ceilingBytes = Math.ceil(options.memoryCapBytes / PAGE) * PAGE;
/**
 * Whether the heap has grown to its ceiling. An allocation that fails inside a promise job
 * becomes that promise's rejection, which nobody may be watching (a chain that schedules itself
 * forever then just stops): a run that filled the heap has hit the memory limit, whatever it
 * reported. Such a worker also retires, so the next run starts with a small heap and its own
 * ceiling.
 */
const heapAtCeiling = (): boolean => memory.buffer.byteLength >= ceilingBytes;
const quickjs: QuickJSWASMModule = await newQuickJSWASMModule(
  newVariant(RELEASE_SYNC, { wasmMemory: memory as never }),
);

const session = new Session(quickjs, options);
const fresh = MemorySnapshot.of(quickjs, memory);

function send(message: WorkerMessage): void {
  port!.postMessage(message);
}

port.on('message', (message: RunsMessage) => {
  if (message.type !== 'runs') return;
  for (const request of message.runs) runOne(request);
});

/** Runs one job and answers it; a worker that must retire exits after its answer (the host re-sends what it had queued here). */
function runOne(request: RunRequest): void {
  try {
    let result = session.run(request.job, request.limits);
    if (result.error?.limit === undefined && heapAtCeiling()) {
      // An error without a limit may be the failed allocation itself, described as well as a full heap allows.
      const { result: _dropped, ...rest } = result;
      result = {
        ...rest,
        ok: false,
        error: { message: limitMessage('memory', request.limits.memory_bytes), limit: 'memory' },
      };
    }
    // Back to the fresh session whatever the run did, before answering: a worker whose memory grew
    // to its ceiling (which cannot shrink) retires, and says so with this answer, before the host
    // gives it another run.
    fresh.restore();
    const retire = heapAtCeiling();
    send({ type: 'done', id: request.id, result, ...(retire ? { retire } : {}) });
    if (retire) process.exit(1);
  } catch (err) {
    send({
      type: 'done',
      id: request.id,
      retire: true,
      result: {
        ok: false,
        pushed: [],
        logs: [],
        duration_ms: 0,
        error: { message: `the sandbox failed: ${(err as Error).message}` },
      },
    });
    process.exit(1);
  }
}

send({ type: 'ready' });
