/** A codec's schema is not valid for its kind. The message names where, and so do the fields. */
export class CodecSchemaError extends Error {
  /** JSON pointer into the `schema` field ('' for the whole schema). */
  readonly pointer: string;
  /** 1-based line in a schema given as text (a .proto file), when known. */
  readonly line: number | undefined;

  constructor(message: string, location: { pointer?: string; line?: number } = {}) {
    super(message);
    this.name = 'CodecSchemaError';
    this.pointer = location.pointer ?? '';
    this.line = location.line;
  }
}

/** Bytes that do not decode, or a value that does not fit the codec. */
export class CodecValueError extends Error {
  /** JSON pointer into the value ('' for the whole value), when the problem has a place there. */
  readonly pointer: string | undefined;
  /** Byte offset in the input, when decoding knows it. */
  readonly offset: number | undefined;

  constructor(message: string, location: { pointer?: string; offset?: number } = {}) {
    super(message);
    this.name = 'CodecValueError';
    this.pointer = location.pointer;
    this.offset = location.offset;
  }
}
