/**
 * The contract of a codec kind: how bytes become a JSON value and back. The built-in kinds
 * (json, text, csv, avro, protobuf, msgpack, cbor) and any kind a third party contributes
 * implement it the same way; nothing here knows about HTTP or storage.
 */
export interface CodecKind {
  /** The kind's name as `POST /codecs` takes it: `json`, `avro`, ... */
  readonly kind: string;
  /**
   * JSON Schema of this kind's `schema` field in `POST /codecs`, or null when the kind takes
   * none. `compile` checks the same rules itself, so a caller may skip this schema.
   */
  readonly schemaSchema: object | null;
  /**
   * Checks and compiles a codec's schema once. `schema` is undefined when the codec has none.
   * Throws CodecSchemaError naming the JSON pointer (or the .proto line) that is wrong.
   */
  compile(schema: unknown): CompiledCodec;
  /**
   * Problems that keep a reader using `next` from reading data written with `previous`
   * (backward compatibility); an empty list when there are none. Both schemas are compiled
   * first (CodecSchemaError when either is invalid). Kinds without schema evolution omit it.
   */
  compatibility?(previous: unknown, next: unknown): CompatibilityProblem[];
  /**
   * For kinds whose bytes can only be read with the schema that wrote them (avro): a codec
   * that decodes data written with `writerSchema` into values of `readerSchema` (schema
   * resolution), so messages written before a schema change still decode after it. It
   * encodes with `readerSchema`. Kinds whose data carries its own structure omit it.
   */
  compileReader?(writerSchema: unknown, readerSchema: unknown): CompiledCodec;
}

export interface CompiledCodec {
  /** The media type of the encoded bytes. */
  readonly contentType: string;
  /**
   * Bytes to a JSON-safe value (see shared/json-out.ts for the mapping). Throws
   * CodecValueError with a clear message, quickly and with bounded memory, on any input.
   */
  decode(bytes: Uint8Array): unknown;
  /** A JSON value to bytes. Throws CodecValueError naming the JSON pointer that does not fit. */
  encode(value: unknown): Uint8Array;
}

/** One thing that breaks backward compatibility, e.g. `{path: 'shop.Order.amount (field 3)', problem: 'type changed from int64 to string'}`. */
export interface CompatibilityProblem {
  path: string;
  problem: string;
}
