import { isUtf8 } from 'node:buffer';
import { CodecValueError } from '../errors.js';
import { MAX_CONTAINERS, MAX_VALUE_DEPTH } from '../limits.js';

/** MessagePack's timestamp extension: the one extension type decoded (to a Date). */
const TIMESTAMP = 0xff;

/**
 * Walks MessagePack bytes before @msgpack/msgpack decodes them, building nothing: every length
 * fits in what remains, every array or map claims no more items than bytes remain (each item
 * takes at least one), nesting stays within MAX_VALUE_DEPTH, at most MAX_CONTAINERS arrays and
 * maps (an empty map is one byte but a JavaScript object), strings are UTF-8 (the library
 * would read invalid bytes as other characters), no bytes are left over. Extension types other
 * than timestamps have no JSON form and are refused. The walk is iterative, so deep nesting
 * cannot overflow the stack here.
 */
export function checkMsgpackBytes(bytes: Buffer): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let position = 0;
  let containers = 0;
  // Items still to read at each open level; the bottom entry is the single top-level value.
  const pending: number[] = [1];
  const fail: (problem: string, at: number) => never = (problem, at) => {
    throw new CodecValueError(`${problem} (byte ${at})`, { offset: at });
  };
  const need = (length: number, at: number): void => {
    if (length > bytes.length - position)
      fail(`the data ends early: ${length} bytes needed, ${bytes.length - position} remain`, at);
  };
  const uint = (size: 1 | 2 | 4, at: number): number => {
    need(size, at);
    const value =
      size === 1 ? view.getUint8(position) : size === 2 ? view.getUint16(position) : view.getUint32(position);
    position += size;
    return value;
  };
  const skip = (length: number, at: number): void => {
    need(length, at);
    position += length;
  };
  const text = (length: number, at: number): void => {
    need(length, at);
    if (!isUtf8(bytes.subarray(position, position + length))) fail('a string is not valid UTF-8', at);
    position += length;
  };
  const extension = (length: number, at: number): void => {
    need(length + 1, at);
    const type = view.getUint8(position);
    if (type !== TIMESTAMP) fail(`extension type ${view.getInt8(position)} is not supported (only -1, timestamps)`, at);
    if (length !== 4 && length !== 8 && length !== 12) fail(`a timestamp is 4, 8 or 12 bytes, not ${length}`, at);
    position += 1 + length;
  };
  const open = (items: number, at: number): void => {
    if (pending.length - 1 >= MAX_VALUE_DEPTH) fail(`the value is nested deeper than ${MAX_VALUE_DEPTH} levels`, at);
    containers += 1;
    if (containers > MAX_CONTAINERS) fail(`the value holds more than ${MAX_CONTAINERS} arrays and maps`, at);
    if (items > bytes.length - position)
      fail(`an array or map claims ${items} items but only ${bytes.length - position} bytes remain`, at);
    if (items > 0) pending.push(items);
  };

  while (pending.length > 0) {
    const top = pending.length - 1;
    if (pending[top] === 0) {
      pending.pop();
      continue;
    }
    pending[top] = (pending[top] as number) - 1;
    const at = position;
    if (position >= bytes.length) fail('the data ends before the value does', at);
    const byte = bytes[position] as number;
    position += 1;
    if (byte <= 0x7f || byte >= 0xe0) continue;
    if (byte <= 0x8f) {
      open(2 * (byte & 0x0f), at);
      continue;
    }
    if (byte <= 0x9f) {
      open(byte & 0x0f, at);
      continue;
    }
    if (byte <= 0xbf) {
      text(byte & 0x1f, at);
      continue;
    }
    switch (byte) {
      case 0xc0:
      case 0xc2:
      case 0xc3:
        break;
      case 0xc1:
        fail('the byte 0xc1 is never used in MessagePack', at);
        break;
      case 0xc4:
        skip(uint(1, at), at);
        break;
      case 0xc5:
        skip(uint(2, at), at);
        break;
      case 0xc6:
        skip(uint(4, at), at);
        break;
      case 0xc7:
        extension(uint(1, at), at);
        break;
      case 0xc8:
        extension(uint(2, at), at);
        break;
      case 0xc9:
        extension(uint(4, at), at);
        break;
      case 0xca:
      case 0xd2:
      case 0xce:
        skip(4, at);
        break;
      case 0xcb:
      case 0xcf:
      case 0xd3:
        skip(8, at);
        break;
      case 0xcc:
      case 0xd0:
        skip(1, at);
        break;
      case 0xcd:
      case 0xd1:
        skip(2, at);
        break;
      case 0xd4:
        extension(1, at);
        break;
      case 0xd5:
        extension(2, at);
        break;
      case 0xd6:
        extension(4, at);
        break;
      case 0xd7:
        extension(8, at);
        break;
      case 0xd8:
        extension(16, at);
        break;
      case 0xd9:
        text(uint(1, at), at);
        break;
      case 0xda:
        text(uint(2, at), at);
        break;
      case 0xdb:
        text(uint(4, at), at);
        break;
      case 0xdc:
        open(uint(2, at), at);
        break;
      case 0xdd:
        open(uint(4, at), at);
        break;
      case 0xde:
        open(2 * uint(2, at), at);
        break;
      case 0xdf:
        open(2 * uint(4, at), at);
        break;
      default:
        fail(`the byte 0x${byte.toString(16)} is not MessagePack`, at);
    }
  }
  if (position !== bytes.length) fail(`${bytes.length - position} bytes remain after the value`, position);
}
