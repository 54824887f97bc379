import type { SandboxError, SandboxLimit } from './types.js';

/** What an error value inside the guest said, read out as plain strings and numbers. */
export interface GuestError {
  name?: string;
  message: string;
  stack?: string;
  fileName?: string;
  lineNumber?: number;
}

/** Frames that are not the script's own files: native code, the bootstrap (console.log, service.*), `Function(...)` bodies. */
const HIDDEN_FILES = ['native', '<bootstrap>', '<input>'];
const FRAME = /\(?([^\s()]+):(\d+):\d+\)?\s*$/;

/** The first frame of a QuickJS stack (`    at f (lib.js:3:18)` or `    at main.js:3:10`). */
export function firstFrame(stack: string | undefined): { file: string; line: number } | undefined {
  if (!stack) return undefined;
  for (const raw of stack.split('\n', 20)) {
    const match = FRAME.exec(raw.trim());
    if (match && !HIDDEN_FILES.includes(match[1] as string))
      return { file: match[1] as string, line: Number(match[2]) };
  }
  return undefined;
}

/** The error a run reports: `Name: message` with the line (and file) where it was thrown. */
export function sandboxError(guest: GuestError, limit?: SandboxLimit): SandboxError {
  const message = guest.name && guest.name !== 'Error' ? `${guest.name}: ${guest.message}` : guest.message;
  const error: SandboxError = { message: message.length > 2000 ? `${message.slice(0, 2000)}…` : message };
  const frame =
    guest.lineNumber !== undefined && guest.fileName && !HIDDEN_FILES.includes(guest.fileName)
      ? { file: guest.fileName, line: guest.lineNumber }
      : firstFrame(guest.stack);
  if (frame) {
    error.line = frame.line;
    error.file = frame.file;
  }
  if (limit) error.limit = limit;
  return error;
}

/** Maps the interpreter's own errors to the limit that produced them. */
export function limitOf(guest: GuestError): SandboxLimit | undefined {
  // Raised by the engine as InternalError, RangeError or (inside JSON.parse) SyntaxError.
  if (guest.message === 'out of memory') return 'memory';
  if (guest.message === 'stack overflow') return 'stack';
  return undefined;
}

/** The messages a limit hit reports. */
export function limitMessage(limit: SandboxLimit, value: number): string {
  switch (limit) {
    case 'deadline':
      return `the script ran past its deadline of ${value} ms`;
    case 'memory':
      return `the script ran out of memory (limit ${value} bytes)`;
    case 'stack':
      return `the script overflowed its stack (limit ${value} bytes)`;
    case 'output':
      return `the script's output passed the limit of ${value} bytes`;
    case 'pushes':
      return `the script pushed more than the limit of ${value} values`;
  }
}
