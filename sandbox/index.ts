/**
 * The sandbox for tenant code: QuickJS (WebAssembly) in a pool of worker threads. Kernel-free:
 * the kernel offers it to plugins as `coreServices.sandbox`; tests and benches may use it directly.
 */
export { createSandbox, type SandboxIncident, type SandboxOptions } from './pool.js';
export { compileCheck } from './compile-check.js';
export { DEFAULT_LIMITS } from './limits.js';
export type {
  Sandbox,
  SandboxError,
  SandboxInput,
  SandboxJob,
  SandboxLimit,
  SandboxLimits,
  SandboxResult,
} from './types.js';
