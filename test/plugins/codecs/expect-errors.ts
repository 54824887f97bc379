import { expect } from 'chai';
import { CodecSchemaError, CodecValueError } from '../../../plugins/codecs/kinds/errors.js';

/** Runs `run` and returns the CodecValueError it throws (fails the test on anything else). */
export function valueError(run: () => unknown): CodecValueError {
  try {
    run();
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(CodecValueError);
    return error as CodecValueError;
  }
  return expect.fail('expected a CodecValueError');
}

/** Runs `run` and returns the CodecSchemaError it throws (fails the test on anything else). */
export function schemaError(run: () => unknown): CodecSchemaError {
  try {
    run();
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(CodecSchemaError);
    return error as CodecSchemaError;
  }
  return expect.fail('expected a CodecSchemaError');
}

export function bytes(...values: number[]): Uint8Array {
  return Uint8Array.from(values);
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
