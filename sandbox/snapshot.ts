/**
 * The interpreter's memory as a freshly built session left it, put back after every run.
 *
 * All of QuickJS's state — runtime, context, intrinsics, atoms, modules, the allocator's own
 * bookkeeping — lives in the worker's WebAssembly memory. Copying the bytes that hold it back over
 * the memory returns the interpreter to exactly the state it had before the run: whatever a
 * script changed (globals, prototypes, module state, pending jobs, a leak on an error path) is
 * gone, as if the session were new, for a few tens of microseconds instead of the ~1.5 ms that
 * building and freeing a runtime and context costs (README, "A reset session per run").
 *
 * Which bytes: the emscripten layout is [static data and bss][stack][heap]. The stack holds no
 * state between calls (the stack pointer, a WebAssembly global, is back at its base whenever the
 * host calls in), so it is the one large region left out; it is found as the longest all-zero
 * stretch of the fresh memory. The heap is copied up to the allocator's top, found by asking the
 * allocator for a block larger than any free one (it comes from the top) and freeing it at once.
 * Memory past that top is free space the allocator hands out only after writing it.
 */

/** What the snapshot needs from the emscripten module. */
export interface HeapAccess {
  memory: { buffer: ArrayBuffer };
  malloc(size: number): number;
  free(pointer: number): void;
}

const PAGE = 4096;
/** Larger than any free block of a fresh heap, smaller than dlmalloc's mmap threshold. */
const PROBE_BYTES = 192 * 1024;
/** Kept on each side of the stack: zero-initialised statics may end the data region. */
const MARGIN = 64 * 1024;
/** Below this, the longest zero stretch is not the stack; then everything is copied. */
const MIN_STACK = 1024 * 1024;

interface Range {
  start: number;
  bytes: Uint8Array;
}

export class MemorySnapshot {
  private readonly ranges: Range[];

  /** The snapshot of a module built over `memory`, through its allocator (not in quickjs-emscripten's typings). */
  static of(quickjs: object, memory: { buffer: ArrayBuffer }): MemorySnapshot {
    const emscripten = (quickjs as { module: { _malloc(size: number): number; _free(pointer: number): void } }).module;
    return new MemorySnapshot({
      memory,
      malloc: (size) => emscripten._malloc(size),
      free: (pointer) => emscripten._free(pointer),
    });
  }

  constructor(private readonly heap: HeapAccess) {
    const probe = heap.malloc(PROBE_BYTES);
    if (probe === 0) throw new Error('the sandbox cannot take its memory snapshot: no room on the heap');
    heap.free(probe);
    const view = new Uint8Array(heap.memory.buffer);
    // The probe's block and the allocator's header after it.
    const top = Math.min(view.length, probe + 64);
    const stack = longestZeroStretch(view, top);
    const spans: Array<[number, number]> =
      stack && stack[1] - stack[0] - 2 * MARGIN >= MIN_STACK
        ? [
            [0, stack[0] + MARGIN],
            [stack[1] - MARGIN, top],
          ]
        : [[0, top]];
    this.ranges = spans.map(([start, end]) => ({ start, bytes: view.slice(start, end) }));
  }

  /** The [start, end) byte ranges copied back per restore (for the tests). */
  get spans(): Array<[number, number]> {
    return this.ranges.map((range) => [range.start, range.start + range.bytes.length]);
  }

  /** Puts the fresh session's bytes back (the memory may have grown since: a new view each time). */
  restore(): void {
    const view = new Uint8Array(this.heap.memory.buffer);
    for (const range of this.ranges) view.set(range.bytes, range.start);
  }
}

/** The longest run of all-zero pages below `end`, as [start, end). */
function longestZeroStretch(view: Uint8Array, end: number): [number, number] | undefined {
  const words = new Uint32Array(view.buffer, 0, Math.floor(end / PAGE) * (PAGE / 4));
  let best: [number, number] | undefined;
  let start = -1;
  const pages = words.length / (PAGE / 4);
  for (let page = 0; page <= pages; page++) {
    let zero = page < pages;
    for (let i = page * (PAGE / 4); zero && i < (page + 1) * (PAGE / 4); i++) if (words[i] !== 0) zero = false;
    if (zero) {
      if (start < 0) start = page * PAGE;
    } else if (start >= 0) {
      if (!best || page * PAGE - start > best[1] - best[0]) best = [start, page * PAGE];
      start = -1;
    }
  }
  return best;
}
