/**
 * The sandbox's contract: what every caller of tenant code (studio runs and tests, the studio
 * terminal, workflow script/filter/map processors, BPMN script tasks) hands in and gets back.
 * The module under `sandbox/` knows nothing of the kernel; the kernel offers it to plugins as
 * `coreServices.sandbox`. Only JSON crosses the boundary, both ways.
 */

/** Per-run limits; RUNTIME.md's defaults are set in config (`sandbox.*`). */
export interface SandboxLimits {
  /** CPU deadline inside the interpreter; the host backstop kills the worker a margin later. */
  deadline_ms: number;
  memory_bytes: number;
  stack_bytes: number;
  /** Bytes of captured console output (and of the serialized result). */
  output_bytes: number;
  pushes: number;
}

/** What the script sees as `input`: the raw body is a string for text, otherwise bytes. */
export interface SandboxInput {
  body: string | Uint8Array | null;
  headers: Readonly<Record<string, string>>;
  key: string | null;
}

export interface SandboxJob {
  /**
   * Isolation boundary: a pooled interpreter context is never shared between different
   * tenants, and no state of one run is visible to the next run of anyone.
   */
  tenantId: string;
  /** ES modules by relative `/`-separated path; the entry may import siblings by relative path. */
  files: Readonly<Record<string, string>>;
  /** Path of the module to run (default `main.js`). */
  entry?: string;
  input: SandboxInput;
  /**
   * Extra JSON globals (a BPMN script task's `variables`, say). Names must not shadow the
   * contract's globals (`input`, `service`, `console`, `result`).
   */
  globals?: Readonly<Record<string, unknown>>;
  /** Evaluate this expression after the entry ran (terminal); its value becomes `result`. */
  expression?: string;
  limits?: Partial<SandboxLimits>;
}

export type SandboxLimit = 'deadline' | 'memory' | 'stack' | 'output' | 'pushes';

export interface SandboxError {
  message: string;
  /** Line in `file` (the entry unless the error came from an imported module). */
  line?: number;
  file?: string;
  /** Set when a limit ended the run. */
  limit?: SandboxLimit;
}

export interface SandboxResult {
  ok: boolean;
  /** The script's `result` (JSON), or undefined when unset or on error. */
  result?: unknown;
  /** Values given to `service.route.push`, in order. */
  pushed: unknown[];
  /** Lines written with `console.log`. */
  logs: string[];
  duration_ms: number;
  error?: SandboxError;
}

export interface Sandbox {
  /** Never rejects for anything the script does: a script error or a hit limit is `ok: false`. */
  run(job: SandboxJob): Promise<SandboxResult>;
  /**
   * Compiles a script (one source, or files with an entry) without running it; the first syntax
   * or import error with its file and line, or undefined. For checks when a script is saved.
   */
  compileCheck(files: Readonly<Record<string, string>> | string, entry?: string): Promise<SandboxError | undefined>;
  /** Stops the worker threads (kernel shutdown). */
  close(): Promise<void>;
}
