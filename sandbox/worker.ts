/**
 * A sandbox worker thread: loads the QuickJS WebAssembly module once and runs jobs one at a
 * time, each in a fresh session (evaluate.ts). The next session is built while the worker is
 * idle. If the interpreter ever fails in a way QuickJS did not report as a script error (a host
 * exception inside WebAssembly, an abort), the worker answers and exits, and the pool starts a
 * fresh one: no later run meets a damaged interpreter.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { getQuickJS, type QuickJSWASMModule } from 'quickjs-emscripten';
import { Session } from './evaluate.js';
import type { RunRequest, WorkerMessage, WorkerOptions } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('sandbox/worker.js runs only as a worker thread');
const options = workerData as WorkerOptions;
const quickjs: QuickJSWASMModule = await getQuickJS();

let spare: Session | undefined;
function nextSession(): Session {
  const session = spare ?? new Session(quickjs);
  spare = undefined;
  return session;
}

function send(message: WorkerMessage): void {
  port!.postMessage(message);
}

port.on('message', (request: RunRequest) => {
  if (request.type !== 'run') return;
  let retire = false;
  let session: Session | undefined;
  try {
    session = nextSession();
    const result = session.run(request.job, request.limits, options);
    try {
      session.dispose();
    } catch {
      retire = true;
    }
    send({ type: 'done', id: request.id, result, ...(retire ? { retire } : {}) });
  } catch (err) {
    send({ type: 'done', id: request.id, retire: true, result: { ok: false, pushed: [], logs: [], duration_ms: 0, error: { message: `the sandbox failed: ${(err as Error).message}` } } });
    retire = true;
  }
  if (retire) {
    process.exit(1);
  }
  // Build the next run's session now, while nobody waits.
  setImmediate(() => {
    try {
      spare ??= new Session(quickjs);
    } catch {
      process.exit(1);
    }
  });
});

send({ type: 'ready' });
