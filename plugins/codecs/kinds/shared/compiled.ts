import { CodecValueError } from '../errors.js';
import { MAX_INPUT_BYTES } from '../limits.js';
import type { CompiledCodec } from '../types.js';

export interface CodecFunctions {
  contentType: string;
  decode(bytes: Buffer): unknown;
  encode(value: unknown): Uint8Array;
}

/**
 * A compiled codec whose errors are always CodecValueError: the input size is checked first,
 * and any error a library throws (including a stack overflow on deeply nested input) becomes
 * a clear refusal naming the kind, never an unexplained crash.
 */
export function compiledCodec(kind: string, functions: CodecFunctions): CompiledCodec {
  return {
    contentType: functions.contentType,
    decode(bytes: Uint8Array): unknown {
      if (!(bytes instanceof Uint8Array)) throw new CodecValueError(`${kind} decode takes bytes`);
      if (bytes.byteLength > MAX_INPUT_BYTES) {
        throw new CodecValueError(
          `the body is ${bytes.byteLength} bytes, more than the ${MAX_INPUT_BYTES} a codec decodes`,
        );
      }
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return refusing(`not valid ${kind}`, () => functions.decode(buffer));
    },
    encode(value: unknown): Uint8Array {
      return refusing(`the value does not fit this ${kind} codec`, () => functions.encode(value));
    },
  };
}

function refusing<T>(prefix: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof CodecValueError) throw error;
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new CodecValueError(`${prefix}: the value is nested too deeply`);
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new CodecValueError(`${prefix}: ${message}`);
  }
}
