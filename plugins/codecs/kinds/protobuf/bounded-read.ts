import protobuf from 'protobufjs';
import { CodecValueError } from '../errors.js';
import { MAX_CONTAINERS, MAX_VALUE_DEPTH } from '../limits.js';
import { pointerOf, showPointer } from '../shared/pointer.js';

/**
 * Walks protobuf wire data against the message type before protobufjs decodes it: every
 * length fits in what remains, wire types are valid, groups close, the JSON value will nest
 * at most MAX_VALUE_DEPTH deep and hold at most MAX_CONTAINERS messages and map entries.
 * protobufjs bounds lengths itself, but an empty nested message costs two bytes and a
 * JavaScript object of ~100, and deep nesting recurses without limit; this walk refuses both
 * before any object is built.
 */
export function checkProtoBytes(type: protobuf.Type, bytes: Uint8Array): void {
  new Walk(bytes).message(type, bytes.length, 0);
}

class Walk {
  private position = 0;
  private containers = 0;
  /** Where the walk is, as JSON pointer segments; joined only when something fails. */
  private readonly path: Array<string | number> = [];

  constructor(private readonly bytes: Uint8Array) {}

  /**
   * Reads the fields of one message (of `type`, or unknown) from `position` to `end`, or for a
   * group up to its end tag (field number `group`).
   */
  message(type: protobuf.Type | undefined, end: number, depth: number, group?: number): void {
    if (depth >= MAX_VALUE_DEPTH)
      this.fail(`the message is nested deeper than ${MAX_VALUE_DEPTH} levels`, this.position);
    this.containers += 1;
    if (this.containers > MAX_CONTAINERS)
      this.fail(`the value holds more than ${MAX_CONTAINERS} messages`, this.position);
    // Occurrences so far of each repeated field, to name an element by its index.
    let seen: Map<number, number> | undefined;
    while (this.position < end) {
      const at = this.position;
      const tag = this.varint(end);
      const number = Math.floor(tag / 8);
      const wireType = tag % 8;
      if (number === 0) this.fail('a field has number 0', at);
      const field = type?.fieldsById[number];
      let segments = 0;
      if (field) {
        this.path.push(field.name);
        segments = 1;
        if (field.repeated && !field.map) {
          seen ??= new Map();
          const index = seen.get(number) ?? 0;
          seen.set(number, index + 1);
          this.path.push(index);
          segments = 2;
        }
      }
      switch (wireType) {
        case 0:
          this.varint(end);
          break;
        case 1:
          this.skip(8, end);
          break;
        case 5:
          this.skip(4, end);
          break;
        case 2: {
          const length = this.varint(end);
          if (length > end - this.position)
            this.fail(`a length of ${length} bytes exceeds the ${end - this.position} that remain`, at);
          const bodyEnd = this.position + length;
          const inner = field ? messageTypeOf(field) : undefined;
          if (inner) this.message(inner.type, bodyEnd, depth + jsonLevels(field as protobuf.Field));
          this.position = bodyEnd;
          break;
        }
        case 3: {
          const inner = field?.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
          this.message(inner, end, depth + (field ? jsonLevels(field) : 1), number);
          break;
        }
        case 4:
          if (group === number) {
            this.path.length -= segments;
            return;
          }
          this.fail(`an end-group tag for field ${number} has no matching start`, at);
          break;
        default:
          this.fail(`wire type ${wireType} does not exist`, at);
      }
      this.path.length -= segments;
    }
    if (group !== undefined) this.fail(`the group of field ${group} is not closed`, this.position);
  }

  private skip(length: number, end: number): void {
    if (length > end - this.position)
      this.fail(`the data ends early: ${length} bytes needed, ${end - this.position} remain`, this.position);
    this.position += length;
  }

  /** An unsigned varint of at most 10 bytes (precision beyond 2^53 does not matter here: it is a length, a tag or skipped). */
  private varint(end: number): number {
    const at = this.position;
    let value = 0;
    let scale = 1;
    for (let i = 0; ; i++) {
      if (i === 10) this.fail('a varint is longer than 10 bytes', at);
      if (this.position >= end) this.fail('the data ends inside a varint', at);
      const byte = this.bytes[this.position] as number;
      this.position += 1;
      value += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return value;
      scale *= 128;
    }
  }

  private fail(problem: string, offset: number): never {
    const pointer = pointerOf(this.path);
    throw new CodecValueError(`${showPointer(pointer)}: ${problem} (byte ${offset})`, { pointer, offset });
  }
}

/**
 * How many JSON levels a field's message sits below its parent: one for a singular field, two
 * in a list (the array, then the object). A map entry counts one (the map object); the
 * message value inside it one more. So depth here is the depth of the JSON value.
 */
function jsonLevels(field: protobuf.Field): number {
  return field.repeated && !field.map ? 2 : 1;
}

/**
 * The message type inside a length-delimited field: the field's message type, or for a map
 * the entry (a message whose field 2 is the value, walked too when it is a message).
 */
function messageTypeOf(field: protobuf.Field): { type: protobuf.Type | undefined } | undefined {
  if (field instanceof protobuf.MapField) {
    return field.resolvedType instanceof protobuf.Type ? { type: mapEntryType(field) } : { type: undefined };
  }
  return field.resolvedType instanceof protobuf.Type ? { type: field.resolvedType } : undefined;
}

const entryTypes = new WeakMap<protobuf.MapField, protobuf.Type>();

/** A synthetic `{key = 1; value = 2}` type so a map entry's message value is walked too. */
function mapEntryType(field: protobuf.MapField): protobuf.Type {
  let entry = entryTypes.get(field);
  if (!entry) {
    entry = new protobuf.Type('MapEntry');
    entry.add(new protobuf.Field('key', 1, field.keyType));
    const value = new protobuf.Field('value', 2, 'bytes');
    value.resolvedType = field.resolvedType;
    entry.add(value);
    entryTypes.set(field, entry);
  }
  return entry;
}
