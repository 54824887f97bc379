import { isUtf8 } from 'node:buffer';
import type avsc from 'avsc';
import type { Type } from 'avsc';
import { CodecValueError } from '../errors.js';
import { MAX_CONTAINERS, MAX_VALUE_DEPTH } from '../limits.js';
import { pointerOf, showPointer } from '../shared/pointer.js';
import { isLong } from './compile.js';
import { branchName, nullableBranch } from './union.js';

/**
 * Walks Avro binary data against its type before avsc decodes it. avsc trusts the counts in
 * the data: an array header claiming 2^50 items makes it loop (and allocate) that many times
 * even when the bytes run out after the first. This walk checks, cheaply and without building
 * values, that every length and count fits in the bytes that remain, that indexes are in
 * range, strings are UTF-8, the JSON value will nest at most MAX_VALUE_DEPTH deep and hold at
 * most MAX_CONTAINERS records, arrays, maps and union wrappers; and that no bytes are left
 * over. Only then does avsc decode.
 */
export function checkAvroBytes(type: Type, bytes: Buffer): void {
  const reader = new Reader(bytes);
  reader.value(type, 0);
  if (reader.position !== bytes.length) {
    throw new CodecValueError(
      `${bytes.length - reader.position} bytes remain after the value (byte ${reader.position})`,
      { offset: reader.position },
    );
  }
}

class Reader {
  position = 0;
  private containers = 0;
  /** Where the walk is, as JSON pointer segments; joined only when something fails. */
  private readonly path: Array<string | number> = [];
  private readonly zeroWidth = new Map<Type, boolean>();

  constructor(private readonly bytes: Buffer) {}

  value(type: Type, depth: number): void {
    switch (type.typeName) {
      case 'null':
        return;
      case 'boolean': {
        const byte = this.take(1)[0];
        if (byte !== 0 && byte !== 1) this.fail(`a boolean is the byte 0 or 1, not ${String(byte)}`, this.position - 1);
        return;
      }
      case 'int': {
        const at = this.position;
        const value = this.varint(5);
        if (value < -0x80000000 || value > 0x7fffffff) this.fail('the int is out of the 32-bit range', at);
        return;
      }
      case 'float':
        this.take(4);
        return;
      case 'double':
        this.take(8);
        return;
      case 'bytes':
        this.take(this.length());
        return;
      case 'string': {
        const at = this.position;
        if (!isUtf8(this.take(this.length()))) this.fail('the string is not valid UTF-8', at);
        return;
      }
      case 'fixed':
        this.take((type as avsc.types.FixedType).size);
        return;
      case 'enum':
        this.index((type as avsc.types.EnumType).symbols.length, 'enum symbol');
        return;
      case 'union:wrapped':
      case 'union:unwrapped': {
        const branches = (type as avsc.types.WrappedUnionType).types;
        const branch = branches[this.index(branches.length, 'union branch')] as Type;
        if (nullableBranch(type) || branch.typeName === 'null') {
          this.value(branch, depth);
          return;
        }
        // Shown wrapped, {"branch": value}: one more JSON level.
        this.enter(depth);
        this.inside(branchName(branch), () => this.value(branch, depth + 1));
        return;
      }
      case 'array': {
        const items = (type as avsc.types.ArrayType).itemsType;
        this.enter(depth);
        this.blocks(items, (index) => this.inside(index, () => this.value(items, depth + 1)));
        return;
      }
      case 'map': {
        const values = (type as avsc.types.MapType).valuesType as Type;
        this.enter(depth);
        this.blocks(values, () => {
          const at = this.position;
          const key = this.take(this.length());
          if (!isUtf8(key)) this.fail('a map key is not valid UTF-8', at);
          this.inside(key.toString('utf8'), () => this.value(values, depth + 1));
        });
        return;
      }
      case 'record':
      case 'error':
        this.enter(depth);
        for (const field of (type as avsc.types.RecordType).fields)
          this.inside(field.name, () => this.value(field.type, depth + 1));
        return;
      default:
        if (isLong(type)) {
          this.varint(10);
          return;
        }
        this.fail(`cannot read the Avro type ${type.typeName}`, this.position);
    }
  }

  private inside(segment: string | number, walk: () => void): void {
    this.path.push(segment);
    walk();
    this.path.pop();
  }

  private enter(depth: number): void {
    if (depth >= MAX_VALUE_DEPTH) this.fail(`the value is nested deeper than ${MAX_VALUE_DEPTH} levels`, this.position);
    this.count();
  }

  private count(): void {
    this.containers += 1;
    if (this.containers > MAX_CONTAINERS)
      this.fail(`the value holds more than ${MAX_CONTAINERS} records, arrays, maps and empty items`, this.position);
  }

  /** Array and map blocks: a count (negative: followed by the block's byte size), 0 ends. */
  private blocks(itemType: Type, item: (index: number) => void): void {
    const empty = this.isZeroWidth(itemType, new Set());
    let index = 0;
    for (;;) {
      const at = this.position;
      let count = this.varint(10);
      if (count === 0) return;
      if (count < 0) {
        count = -count;
        this.length();
      }
      // Each item takes at least one byte unless its type has no bytes at all (null, an
      // empty record): those are counted against the container budget instead.
      if (!empty && count > this.bytes.length - this.position) {
        this.fail(`a block claims ${count} items but only ${this.bytes.length - this.position} bytes remain`, at);
      }
      for (let k = 0; k < count; k++) {
        if (empty) this.count();
        item(index);
        index += 1;
      }
    }
  }

  private isZeroWidth(type: Type, visiting: Set<Type>): boolean {
    const known = this.zeroWidth.get(type);
    if (known !== undefined) return known;
    if (visiting.has(type)) return false;
    visiting.add(type);
    let result: boolean;
    switch (type.typeName) {
      case 'null':
        result = true;
        break;
      case 'fixed':
        result = (type as avsc.types.FixedType).size === 0;
        break;
      case 'record':
      case 'error':
        result = (type as avsc.types.RecordType).fields.every((field) => this.isZeroWidth(field.type, visiting));
        break;
      default:
        result = false;
    }
    visiting.delete(type);
    this.zeroWidth.set(type, result);
    return result;
  }

  private take(length: number): Buffer {
    if (length > this.bytes.length - this.position) {
      this.fail(
        `the data ends early: ${length} bytes needed, ${this.bytes.length - this.position} remain`,
        this.position,
      );
    }
    const slice = this.bytes.subarray(this.position, this.position + length);
    this.position += length;
    return slice;
  }

  private length(): number {
    const at = this.position;
    const length = this.varint(10);
    if (length < 0) this.fail(`a length is negative (${length})`, at);
    if (length > this.bytes.length - this.position) {
      this.fail(`a length of ${length} bytes exceeds the ${this.bytes.length - this.position} that remain`, at);
    }
    return length;
  }

  private index(size: number, what: string): number {
    const at = this.position;
    const index = this.varint(10);
    if (index < 0 || index >= size) this.fail(`${what} index ${index} is out of range (0–${size - 1})`, at);
    return index;
  }

  /** A zig-zag varint of at most `maxBytes` bytes. Values beyond 2^53 lose precision, which only matters for longs, and those avsc reads itself. */
  private varint(maxBytes: number): number {
    const at = this.position;
    let unsigned = 0;
    let scale = 1;
    for (let i = 0; ; i++) {
      if (i === maxBytes) this.fail(`a variable-length integer is longer than ${maxBytes} bytes`, at);
      if (this.position >= this.bytes.length) this.fail('the data ends inside a variable-length integer', at);
      const byte = this.bytes[this.position] as number;
      this.position += 1;
      unsigned += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) break;
      scale *= 128;
    }
    return unsigned % 2 === 0 ? unsigned / 2 : -(unsigned + 1) / 2;
  }

  private fail(problem: string, offset: number): never {
    const pointer = pointerOf(this.path);
    throw new CodecValueError(`${showPointer(pointer)}: ${problem} (byte ${offset})`, { pointer, offset });
  }
}
