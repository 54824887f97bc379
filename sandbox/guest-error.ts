import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten';
import { limitOf, sandboxError, type GuestError } from './errors.js';
import type { SandboxError } from './types.js';

/** Longest message or stack (in characters) read out of a thrown value. */
const MAX_ERROR_TEXT = 1024 * 1024;

/** Reads a thrown value out of the guest as plain data (and disposes it). */
export function describeThrown(ctx: QuickJSContext, handle: QuickJSHandle): SandboxError {
  const guest: GuestError = { message: '' };
  try {
    if (ctx.typeof(handle) === 'object') {
      const read = (key: string): unknown =>
        ctx.getProp(handle, key).consume((h) => {
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
