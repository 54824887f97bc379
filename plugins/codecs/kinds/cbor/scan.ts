import { isUtf8 } from 'node:buffer';
import { CodecValueError } from '../errors.js';
import { MAX_CONTAINERS, MAX_VALUE_DEPTH } from '../limits.js';

interface Level {
  /** Items still to read; Infinity for an indefinite-length array or map (ended by 0xff). */
  remaining: number;
  /** Items read so far in an indefinite map, which must come in key/value pairs. */
  read: number;
  map: boolean;
}

/**
 * Walks CBOR bytes before cbor2 decodes them, building nothing: every length fits in what
 * remains, arrays and maps claim no more items than bytes remain, indefinite-length items are
 * well formed, nesting (tags included) stays within MAX_VALUE_DEPTH, at most MAX_CONTAINERS
 * arrays and maps, text strings are UTF-8, simple values are only false, true, null and
 * undefined, and no bytes are left over. Iterative, so deep nesting cannot overflow the stack.
 */
export function checkCborBytes(bytes: Buffer): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let position = 0;
  let containers = 0;
  const levels: Level[] = [{ remaining: 1, read: 0, map: false }];
  const fail: (problem: string, at: number) => never = (problem, at) => {
    throw new CodecValueError(`${problem} (byte ${at})`, { offset: at });
  };
  const need = (length: number, at: number): void => {
    if (length > bytes.length - position)
      fail(`the data ends early: ${length} bytes needed, ${bytes.length - position} remain`, at);
  };
  /** The argument of a head with additional information `info`; undefined for indefinite (31). */
  const argument = (info: number, at: number): number | undefined => {
    if (info < 24) return info;
    if (info === 31) return undefined;
    if (info > 27) fail(`additional information ${info} is reserved`, at);
    const size = 1 << (info - 24);
    need(size, at);
    const value =
      size === 1
        ? view.getUint8(position)
        : size === 2
          ? view.getUint16(position)
          : size === 4
            ? view.getUint32(position)
            : Number(view.getBigUint64(position));
    position += size;
    return value;
  };
  const open = (items: number | undefined, map: boolean, at: number): void => {
    if (levels.length - 1 >= MAX_VALUE_DEPTH) fail(`the value is nested deeper than ${MAX_VALUE_DEPTH} levels`, at);
    if (map || items !== 1) {
      containers += 1;
      if (containers > MAX_CONTAINERS) fail(`the value holds more than ${MAX_CONTAINERS} arrays and maps`, at);
    }
    if (items !== undefined && items > bytes.length - position)
      fail(`an array or map claims ${items} items but only ${bytes.length - position} bytes remain`, at);
    if (items !== 0) levels.push({ remaining: items ?? Infinity, read: 0, map });
  };
  const string = (major: number, length: number, at: number): void => {
    need(length, at);
    if (major === 3 && !isUtf8(bytes.subarray(position, position + length)))
      fail('a text string is not valid UTF-8', at);
    position += length;
  };

  while (levels.length > 0) {
    const level = levels[levels.length - 1] as Level;
    if (level.remaining === 0) {
      levels.pop();
      continue;
    }
    const at = position;
    if (position >= bytes.length) fail('the data ends before the value does', at);
    const head = bytes[position] as number;
    position += 1;
    if (head === 0xff) {
      if (level.remaining !== Infinity) fail('a "break" outside an indefinite-length array or map', at);
      if (level.map && level.read % 2 !== 0) fail('an indefinite-length map ends between a key and its value', at);
      levels.pop();
      continue;
    }
    level.remaining -= 1;
    level.read += 1;
    const major = head >> 5;
    const info = head & 0x1f;
    switch (major) {
      case 0:
      case 1:
        if (argument(info, at) === undefined) fail('an integer cannot have indefinite length', at);
        break;
      case 2:
      case 3: {
        const length = argument(info, at);
        if (length !== undefined) {
          string(major, length, at);
          break;
        }
        // Indefinite-length string: definite chunks of the same major type, then a break.
        for (;;) {
          const chunkAt = position;
          need(1, chunkAt);
          const chunk = bytes[position] as number;
          position += 1;
          if (chunk === 0xff) break;
          const chunkLength = chunk >> 5 === major ? argument(chunk & 0x1f, chunkAt) : undefined;
          if (chunkLength === undefined)
            fail('an indefinite-length string holds something other than definite chunks of its type', chunkAt);
          string(major, chunkLength, chunkAt);
        }
        break;
      }
      case 4:
        open(argument(info, at), false, at);
        break;
      case 5: {
        const pairs = argument(info, at);
        open(pairs === undefined ? undefined : 2 * pairs, true, at);
        break;
      }
      case 6: {
        const tag = argument(info, at);
        if (tag === undefined) fail('a tag cannot have indefinite length', at);
        open(1, false, at);
        break;
      }
      default:
        if (info >= 20 && info <= 23) break;
        if (info === 25) {
          need(2, at);
          position += 2;
          break;
        }
        if (info === 26) {
          need(4, at);
          position += 4;
          break;
        }
        if (info === 27) {
          need(8, at);
          position += 8;
          break;
        }
        fail(
          info === 24 || info < 20
            ? 'simple values other than false, true, null and undefined are not supported'
            : `additional information ${info} is reserved`,
          at,
        );
    }
  }
  if (position !== bytes.length) fail(`${bytes.length - position} bytes remain after the value`, position);
}
