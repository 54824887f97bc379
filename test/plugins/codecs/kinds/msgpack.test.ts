import { expect } from 'chai';
import { Encoder } from '@msgpack/msgpack';
import { MAX_CONTAINERS } from '../../../../plugins/codecs/kinds/limits.js';
import { msgpackKind } from '../../../../plugins/codecs/kinds/msgpack.js';
import { bytes, schemaError, valueError } from '../expect-errors.js';

describe('codec kind msgpack', () => {
  const codec = msgpackKind.compile(undefined);

  it('round-trips JSON values', () => {
    const value = {
      name: 'Zoë',
      list: [0, -1, 127, -33, 65536, 2 ** 40, -(2 ** 40), 1.5, null, true, false],
      nested: { empty: {}, none: [] },
    };
    expect(codec.decode(codec.encode(value))).to.deep.equal(value);
    expect(codec.contentType).to.equal('application/vnd.msgpack');
  });

  it('writes wide integers as integers and small maps compactly', () => {
    expect(codec.encode(2 ** 40)).to.deep.equal(bytes(0xcf, 0, 0, 1, 0, 0, 0, 0, 0));
    expect(codec.encode(-(2 ** 40))).to.deep.equal(bytes(0xd3, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0));
    expect(codec.encode({ a: 1 })).to.deep.equal(bytes(0x81, 0xa1, 0x61, 0x01));
  });

  it('maps what has no JSON form as documented', () => {
    const other = new Encoder({ useBigInt64: true });
    const decoded = codec.decode(
      other.encode({
        bin: Buffer.from('hi'),
        at: new Date('2024-05-01T10:00:00.123Z'),
        big: 2n ** 64n - 1n,
        safe: 2n ** 40n,
        neg: -(2n ** 63n),
      }),
    );
    expect(decoded).to.deep.equal({
      bin: 'aGk=',
      at: '2024-05-01T10:00:00.123Z',
      big: '18446744073709551615',
      safe: 2 ** 40,
      neg: '-9223372036854775808',
    });
    // A map with integer keys becomes an object with string keys; a NaN float a string.
    expect(codec.decode(bytes(0x82, 0x01, 0xa1, 0x61, 0x02, 0xcb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0))).to.deep.equal({
      1: 'a',
      2: 'NaN',
    });
  });

  it('refuses a "__proto__" key and map keys that are not strings or numbers', () => {
    const error = valueError(() =>
      codec.decode(bytes(0x81, 0xa9, ...Buffer.from('__proto__'), 0x81, 0xa5, ...Buffer.from('admin'), 0xc3)),
    );
    expect(error.message).to.equal('not valid msgpack: The key __proto__ is not allowed');
    expect(({} as Record<string, unknown>).admin).to.equal(undefined);
    expect(valueError(() => codec.decode(bytes(0x81, 0x91, 0x01, 0x02))).message).to.contain(
      'The type of key must be string or number',
    );
  });

  it('refuses hostile bytes at once, naming the byte', () => {
    const cases: Array<[Uint8Array, RegExp]> = [
      [bytes(), /ends before the value does \(byte 0\)/],
      [bytes(0x92, 0x01), /an array or map claims 2 items but only 1 bytes remain \(byte 0\)/],
      [bytes(0x92, 0x91, 0x01), /ends before the value does \(byte 3\)/],
      [bytes(0xdd, 0xff, 0xff, 0xff, 0xff, 0x01), /claims 4294967295 items but only 1 bytes remain/],
      [bytes(0xdf, 0x7f, 0xff, 0xff, 0xff, 0x01), /claims 4294967294 items/],
      [bytes(0xdb, 0xff, 0xff, 0xff, 0xff, 0x41), /4294967295 bytes needed, 1 remain/],
      [bytes(0xc6, 0x7f, 0xff, 0xff, 0xff), /2147483647 bytes needed/],
      [bytes(0xc1), /0xc1 is never used/],
      [bytes(0xd4, 0x05, 0x00), /extension type 5 is not supported/],
      [bytes(0xd5, 0xff, 0, 0), /a timestamp is 4, 8 or 12 bytes, not 2/],
      [bytes(0x01, 0x02), /1 bytes remain after the value \(byte 1\)/],
      [bytes(0xa2, 0xff, 0xfe), /a string is not valid UTF-8/],
    ];
    for (const [data, message] of cases) expect(valueError(() => codec.decode(data)).message).to.match(message);
  });

  it('refuses nesting deeper than 64 levels and more than MAX_CONTAINERS maps', () => {
    expect(codec.decode(bytes(...Array<number>(64).fill(0x91), 0x01))).to.be.an('array');
    expect(valueError(() => codec.decode(bytes(...Array<number>(65).fill(0x91), 0x01))).message).to.contain(
      'nested deeper than 64 levels',
    );
    expect(valueError(() => codec.decode(Buffer.alloc(200000, 0x91))).message).to.contain(
      'nested deeper than 64 levels',
    );
    const emptyMaps = Buffer.alloc(5 + MAX_CONTAINERS, 0x80);
    emptyMaps.writeUInt8(0xdd, 0);
    emptyMaps.writeUInt32BE(MAX_CONTAINERS, 1);
    expect(valueError(() => codec.decode(emptyMaps)).message).to.contain(`more than ${MAX_CONTAINERS} arrays and maps`);
  });

  it('encodes only JSON values', () => {
    expect(valueError(() => codec.encode({ a: [Infinity] })).pointer).to.equal('/a/0');
    expect(valueError(() => codec.encode({ a: new Map() })).pointer).to.equal('/a');
  });

  it('takes no schema', () => {
    expect(schemaError(() => msgpackKind.compile({ records: true })).message).to.equal('msgpack codecs take no schema');
  });
});
