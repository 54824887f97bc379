import { CodecValueError } from '../errors.js';

// One decoder for all: `fatal` refuses invalid UTF-8 instead of inventing U+FFFD, and the
// default `ignoreBOM: false` strips a leading byte-order mark.
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** Bytes as a string, or CodecValueError naming the byte offset where the UTF-8 goes wrong. */
export function decodeUtf8(bytes: Uint8Array, what = 'the body'): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    throw new CodecValueError(`${what} is not valid UTF-8 (byte ${offset})`, { offset });
  }
}

/**
 * Offset of the first byte that starts an invalid UTF-8 sequence (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF). Only called after the native check failed,
 * to tell the user where.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    let length: number;
    let codePoint: number;
    if (lead >= 0xc2 && lead <= 0xdf) {
      length = 2;
      codePoint = lead & 0x1f;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      codePoint = lead & 0x0f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      codePoint = lead & 0x07;
    } else return i;
    if (i + length > bytes.length) return i;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k] as number;
      if ((next & 0xc0) !== 0x80) return i;
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    const overlong = (length === 3 && codePoint < 0x800) || (length === 4 && codePoint < 0x10000);
    if (overlong || (codePoint >= 0xd800 && codePoint <= 0xdfff) || codePoint > 0x10ffff) return i;
    i += length;
  }
  return bytes.length;
}

/** A UTF-16 surrogate without its partner: it has no UTF-8 form. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}
