import { expect } from 'chai';
import { MAX_CONTAINERS } from '../../../../plugins/codecs/kinds/limits.js';
import { cborKind } from '../../../../plugins/codecs/kinds/cbor.js';
import { bytes, schemaError, valueError } from '../expect-errors.js';

describe('codec kind cbor', () => {
  const codec = cborKind.compile(undefined);

  it('round-trips JSON values', () => {
    const value = {
      name: 'Zoë',
      list: [0, -1, 23, 24, -25, 65536, 2 ** 40, -(2 ** 40), 1.5, null, true, false],
      nested: { empty: {}, none: [] },
    };
    expect(codec.decode(codec.encode(value))).to.deep.equal(value);
    expect(codec.contentType).to.equal('application/cbor');
  });

  it("writes CBOR's preferred serialization: integers as integers, the shortest float", () => {
    expect(codec.encode(2 ** 40)).to.deep.equal(bytes(0x1b, 0, 0, 1, 0, 0, 0, 0, 0));
    expect(codec.encode(1.5)).to.deep.equal(bytes(0xf9, 0x3e, 0x00));
    expect(codec.encode({ a: [1, 'b'] })).to.deep.equal(bytes(0xa1, 0x61, 0x61, 0x82, 0x01, 0x61, 0x62));
  });

  it('decodes RFC 8949 items into the documented JSON forms', () => {
    const cases: Array<[Uint8Array, unknown]> = [
      [bytes(0x43, 1, 2, 3), 'AQID'],
      [bytes(0xc0, 0x74, ...Buffer.from('2013-03-21T20:04:00Z')), '2013-03-21T20:04:00.000Z'],
      [bytes(0xc1, 0x1a, 0x51, 0x4b, 0x67, 0xb0), '2013-03-21T20:04:00.000Z'],
      [bytes(0xc2, 0x49, 1, 0, 0, 0, 0, 0, 0, 0, 0), '18446744073709551616'],
      [bytes(0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), '-18446744073709551616'],
      [bytes(0x1b, 0, 0, 0, 0, 0, 0, 0, 5), 5],
      [bytes(0xd8, 0x25, 0x50, ...Array<number>(16).fill(1)), 'AQEBAQEBAQEBAQEBAQEBAQ=='],
      [bytes(0xd9, 0xd9, 0xf7, 0x01), 1],
      [bytes(0xf7), null],
      [bytes(0xf9, 0x7e, 0x00), 'NaN'],
      [bytes(0xfa, 0x7f, 0x80, 0, 0), 'Infinity'],
      [bytes(0xa2, 0x01, 0x61, 0x61, 0xf5, 0x02), { 1: 'a', true: 2 }],
      [bytes(0x9f, 0x01, 0x82, 0x02, 0x03, 0xff), [1, [2, 3]]],
      [bytes(0xbf, 0x61, 0x61, 0x01, 0xff), { a: 1 }],
      [bytes(0xd9, 0x01, 0x02, 0x82, 0x01, 0x02), [1, 2]],
      [bytes(0x7f, 0x62, 0x68, 0x65, 0x62, 0x6c, 0x6c, 0xff), 'hell'],
      [bytes(0xc3, 0x41, 0x01), -2],
    ];
    for (const [data, expected] of cases)
      expect(codec.decode(data), Buffer.from(data).toString('hex')).to.deep.equal(expected);
  });

  it('reads other tags as the value they tag, never building objects from them', () => {
    const text = (value: string): number[] => [0x60 + value.length, ...Buffer.from(value)];
    const cases: Array<[Uint8Array, unknown]> = [
      [bytes(0xd8, 0x23, ...text('^(a+)+$')), '^(a+)+$'],
      [bytes(0xd8, 0x20, ...text('http://x')), 'http://x'],
      [bytes(0xd8, 0x18, 0x42, 0x82, 0x01), 'ggE='],
      [bytes(0xd9, 0x01, 0x06, ...text('{"a":1}')), '{"a":1}'],
      [bytes(0xd9, 0x01, 0x18, ...text('sym')), 'sym'],
      [bytes(0xd8, 0x1c, 0x81, 0xd8, 0x1d, 0x00), [0]],
    ];
    for (const [data, expected] of cases)
      expect(codec.decode(data), Buffer.from(data).toString('hex')).to.deep.equal(expected);
  });

  it('refuses dates and bignums that are not what their tags say, and unknown simple values', () => {
    const cases: Array<[Uint8Array, RegExp]> = [
      [bytes(0xc0, 0x63, ...Buffer.from('now')), /a date \(tag 0\) is not an RFC 3339 string/],
      [bytes(0xc1, 0x61, 0x31), /a date \(tag 1\) is not a number of seconds/],
      [bytes(0xc1, 0xfb, 0x7f, 0xef, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), /date that cannot be represented/],
      [bytes(0xc2, 0x58, 0x21, ...Array<number>(33).fill(1)), /a bignum longer than 32 bytes is not supported/],
      [bytes(0xc2, 0x01), /a bignum \(tag 2\) is not a byte string/],
      [bytes(0xf0), /simple values other than false, true, null and undefined/],
      [bytes(0xf8, 0x20), /simple values other than/],
    ];
    for (const [data, message] of cases)
      expect(valueError(() => codec.decode(data)).message, Buffer.from(data).toString('hex')).to.match(message);
  });

  it('refuses hostile and malformed bytes at once, naming the byte', () => {
    const cases: Array<[Uint8Array, RegExp]> = [
      [bytes(), /ends before the value does \(byte 0\)/],
      [bytes(0x82, 0x01), /an array or map claims 2 items but only 1 bytes remain \(byte 0\)/],
      [bytes(0x82, 0x81, 0x01), /ends before the value does \(byte 3\)/],
      [bytes(0x9b, 0, 0, 0, 0x0f, 0xff, 0xff, 0xff, 0xff, 0x01), /claims \d+ items but only 1 bytes remain/],
      [bytes(0xba, 0x7f, 0xff, 0xff, 0xff, 0x01, 0x02), /claims 4294967294 items/],
      [bytes(0x7a, 0xff, 0xff, 0xff, 0xff, 0x41), /4294967295 bytes needed, 1 remain/],
      [bytes(0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), /bytes needed/],
      [bytes(0x9f, 0x01), /ends before the value does/],
      [bytes(0xff), /"break" outside an indefinite-length/],
      [bytes(0xbf, 0x61, 0x61, 0xff), /ends between a key and its value/],
      [bytes(0x7f, 0x41, 0x00, 0xff), /other than definite chunks of its type/],
      [bytes(0x1c), /additional information 28 is reserved/],
      [bytes(0x62, 0xff, 0xfe), /text string is not valid UTF-8/],
      [bytes(0x01, 0x02), /1 bytes remain after the value \(byte 1\)/],
    ];
    for (const [data, message] of cases)
      expect(valueError(() => codec.decode(data)).message, Buffer.from(data).toString('hex')).to.match(message);
  });

  it('refuses nesting deeper than 64 levels (tags included) and more than MAX_CONTAINERS maps', () => {
    expect(codec.decode(bytes(...Array<number>(64).fill(0x81), 0x01))).to.be.an('array');
    expect(valueError(() => codec.decode(bytes(...Array<number>(65).fill(0x81), 0x01))).message).to.contain(
      'nested deeper than 64 levels',
    );
    expect(valueError(() => codec.decode(Buffer.alloc(200000, 0xd5))).message).to.contain(
      'nested deeper than 64 levels',
    );
    const emptyMaps = Buffer.alloc(5 + MAX_CONTAINERS, 0xa0);
    emptyMaps.writeUInt8(0x9a, 0);
    emptyMaps.writeUInt32BE(MAX_CONTAINERS, 1);
    expect(valueError(() => codec.decode(emptyMaps)).message).to.contain(`more than ${MAX_CONTAINERS} arrays and maps`);
  });

  it('takes no schema', () => {
    expect(schemaError(() => cborKind.compile({ tags: [] })).message).to.equal('cbor codecs take no schema');
  });
});
