import avsc from 'avsc';
import { expect } from 'chai';
import { avroKind } from '../../../../plugins/codecs/kinds/avro.js';
import { MAX_CONTAINERS } from '../../../../plugins/codecs/kinds/limits.js';
import { bytes, schemaError, valueError } from '../expect-errors.js';

const orderSchema = {
  type: 'record',
  name: 'Order',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'big', type: 'long' },
    { name: 'note', type: ['null', 'string'], default: null },
    { name: 'amount', type: 'double' },
    { name: 'ratio', type: 'float' },
    {
      name: 'items',
      type: {
        type: 'array',
        items: {
          type: 'record',
          name: 'Item',
          fields: [
            { name: 'sku', type: 'string' },
            { name: 'qty', type: 'int' },
          ],
        },
      },
    },
    { name: 'blob', type: 'bytes' },
    { name: 'hash', type: { type: 'fixed', name: 'Hash', size: 4 } },
    { name: 'status', type: { type: 'enum', name: 'Status', symbols: ['NEW', 'PAID'] } },
    { name: 'either', type: ['null', 'int', 'string'] },
    { name: 'tags', type: { type: 'map', values: 'long' } },
    { name: 'channel', type: 'string', default: 'web' },
  ],
};

const order = {
  id: 42,
  big: '9223372036854775807',
  note: 'gift',
  amount: 12.5,
  ratio: 'NaN',
  items: [
    { sku: 'A-1', qty: 2 },
    { sku: 'B-2', qty: 1 },
  ],
  blob: 'aGVsbG8=',
  hash: 'AAECAw==',
  status: 'PAID',
  either: { string: 'x' },
  tags: { a: 1, b: -4503599627370496 },
  channel: 'shop',
};

/** Zig-zag varint of a non-negative count, as Avro writes block counts and lengths. */
function varint(n: bigint): number[] {
  let z = n >= 0n ? n * 2n : -n * 2n - 1n;
  const out: number[] = [];
  do {
    const low = Number(z & 0x7fn);
    z >>= 7n;
    out.push(z > 0n ? low | 0x80 : low);
  } while (z > 0n);
  return out;
}

describe('codec kind avro', () => {
  const codec = avroKind.compile(orderSchema);

  it('round-trips a record through Avro binary, with the documented JSON mapping', () => {
    const decoded = codec.decode(codec.encode(order));
    expect(decoded).to.deep.equal(order);
    expect(codec.contentType).to.equal('avro/binary');
  });

  it('writes the same bytes as avsc itself, so other Avro readers understand them', () => {
    const plain = avsc.Type.forSchema(orderSchema as avsc.Schema, { wrapUnions: 'always' });
    const datum = {
      ...order,
      big: 2 ** 52,
      ratio: Number.NaN,
      blob: Buffer.from('hello'),
      hash: Buffer.from([0, 1, 2, 3]),
      note: { string: 'gift' },
      either: { string: 'x' },
      tags: { a: 1, b: -4503599627370496 },
    };
    const ours = avroKind.compile(orderSchema).encode({ ...order, big: 2 ** 52 });
    expect(Buffer.from(ours).equals(plain.toBuffer(datum))).to.equal(true);
  });

  it('keeps longs beyond 2^53 exact as decimal strings, and safe ones as numbers', () => {
    const longs = avroKind.compile({ type: 'array', items: 'long' });
    const value = [0, -1, 9007199254740991, '9007199254740993', '-9223372036854775808'];
    expect(longs.decode(longs.encode(value))).to.deep.equal(value);
    expect(valueError(() => longs.encode(['9223372036854775808'])).message).to.equal(
      '/0: 9223372036854775808 is out of the 64-bit long range',
    );
    expect(valueError(() => longs.encode([2 ** 60])).message).to.contain('write it as a decimal string');
  });

  it('fills missing fields from their defaults and refuses missing fields without one', () => {
    const { note, channel, ...rest } = order;
    expect(note && channel).to.be.a('string');
    const decoded = codec.decode(codec.encode(rest)) as Record<string, unknown>;
    expect(decoded.note).to.equal(null);
    expect(decoded.channel).to.equal('web');
    const { amount, ...noAmount } = order;
    expect(amount).to.be.a('number');
    const error = valueError(() => codec.encode(noAmount));
    expect(error.pointer).to.equal('/amount');
    expect(error.message).to.equal('/amount: is required (the field has no default)');
  });

  it('refuses values that do not fit, naming the path that failed', () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [
        {
          items: [
            { sku: 'A', qty: 1 },
            { sku: 'B', qty: 'two' },
          ],
        },
        '/items/1/qty',
        /expected an integer \(Avro int\), got string/,
      ],
      [{ items: [{ sku: 'A', qty: 2 ** 31 }] }, '/items/0/qty', /out of the 32-bit int range/],
      [{ status: 'LOST' }, '/status', /"LOST" is not a symbol of shop.Status \(NEW, PAID\)/],
      [{ hash: 'AAE=' }, '/hash', /is 2 bytes but shop.Hash is fixed at 4/],
      [{ blob: 'not base64!' }, '/blob', /is not valid base64/],
      [{ either: 'x' }, '/either', /is written \{"int": …\} or \{"string": …\} or null/],
      [{ either: { long: 1 } }, '/either', /is written/],
      [{ either: { int: 'x' } }, '/either/int', /expected an integer/],
      [{ note: 5 }, '/note', /expected a string/],
      [{ extra: 1 }, '/extra', /is not a field of shop.Order/],
      [{ tags: { a: 'x' } }, '/tags/a', /expected an integer/],
      [{ ratio: 1e39 }, '/ratio', /out of the float range/],
    ];
    for (const [change, pointer, message] of cases) {
      const error = valueError(() => codec.encode({ ...order, ...change }));
      expect(error.pointer, pointer).to.equal(pointer);
      expect(error.message, pointer).to.match(message);
    }
  });

  it('refuses truncated data, trailing bytes and out-of-range indexes with the byte offset', () => {
    const encoded = codec.encode(order);
    const truncated = valueError(() => codec.decode(encoded.subarray(0, encoded.length - 3)));
    expect(truncated.message).to.match(/data ends|exceeds/);
    expect(valueError(() => codec.decode(Buffer.concat([encoded, Buffer.from([0])]))).message).to.equal(
      `1 bytes remain after the value (byte ${encoded.length})`,
    );
    const enumType = avroKind.compile({ type: 'enum', name: 'E', symbols: ['A', 'B'] });
    expect(valueError(() => enumType.decode(bytes(...varint(2n)))).message).to.equal(
      '/: enum symbol index 2 is out of range (0–1) (byte 0)',
    );
    const union = avroKind.compile(['null', 'string']);
    expect(valueError(() => union.decode(bytes(...varint(-1n)))).message).to.contain(
      'union branch index -1 is out of range',
    );
    const bool = avroKind.compile('boolean');
    expect(valueError(() => bool.decode(bytes(2))).message).to.contain('a boolean is the byte 0 or 1');
    const text = avroKind.compile('string');
    expect(valueError(() => text.decode(bytes(...varint(2n), 0xc3, 0x28))).message).to.contain('not valid UTF-8');
    expect(valueError(() => text.decode(bytes(...varint(-5n)))).message).to.contain('a length is negative');
    expect(
      valueError(() => text.decode(bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01))).message,
    ).to.contain('longer than 10 bytes');
  });

  it('refuses huge counts and lengths at once instead of looping or allocating', () => {
    const ints = avroKind.compile({ type: 'array', items: 'int' });
    const hugeCount = valueError(() => ints.decode(bytes(...varint(2n ** 60n), 2, 0)));
    expect(hugeCount.message).to.match(/a block claims \d+ items but only 2 bytes remain/);
    const hugeLength = valueError(() => avroKind.compile('bytes').decode(bytes(...varint(2n ** 40n), 1)));
    expect(hugeLength.message).to.contain('exceeds the 1 that remain');
    // Nulls take no bytes, so the byte count cannot bound them: the container budget does.
    const nulls = avroKind.compile({ type: 'array', items: 'null' });
    expect(nulls.decode(bytes(...varint(3n), 0))).to.deep.equal([null, null, null]);
    expect(valueError(() => nulls.decode(bytes(...varint(2n ** 62n), 0))).message).to.contain(
      `more than ${MAX_CONTAINERS}`,
    );
    const blockWithSize = valueError(() => ints.decode(bytes(...varint(-3n), ...varint(2n ** 40n), 2, 4, 6, 0)));
    expect(blockWithSize.message).to.contain('exceeds');
  });

  it('refuses data nested deeper than 64 levels of a recursive schema', () => {
    const list = avroKind.compile({ type: 'record', name: 'Node', fields: [{ name: 'next', type: ['null', 'Node'] }] });
    const deep = (levels: number): Uint8Array => bytes(...Array<number>(levels - 1).fill(2), 0);
    expect(list.decode(deep(64))).to.have.property('next');
    expect(valueError(() => list.decode(deep(65))).message).to.contain('nested deeper than 64 levels');
    expect(valueError(() => list.decode(deep(100000))).message).to.contain('nested deeper than 64 levels');
  });

  it('refuses an invalid Avro schema naming the JSON pointer', () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [
        { type: 'record', name: 'R', fields: [{ name: 'a', type: 'strin' }] },
        '/fields/0/type',
        /"strin" is not a primitive type nor a named type defined before this point/,
      ],
      [{ type: 'record', name: 'R' }, '', /a record needs "fields"/],
      [
        {
          type: 'record',
          name: 'R',
          fields: [
            { name: 'a', type: 'int' },
            { name: 'a', type: 'int' },
          ],
        },
        '/fields/1/name',
        /defined twice/,
      ],
      [{ type: 'record', name: '1R', fields: [] }, '/name', /not a valid Avro name/],
      [{ type: 'enum', name: 'E', symbols: ['A', 'A'] }, '/symbols/1', /listed twice/],
      [{ type: 'enum', name: 'E', symbols: ['A'], default: 'B' }, '/default', /must be one of its symbols/],
      [{ type: 'fixed', name: 'F', size: -1 }, '/size', /non-negative integer/],
      [['null', ['int']], '/1', /may not contain a union directly/],
      [['string', { type: 'string' }], '/1', /already has a branch of type string/],
      [{ type: 'array' }, '', /needs "items"/],
      [
        { type: 'record', name: 'R', fields: [{ name: 'a', type: 'int', default: 'x' }] },
        '/fields/0/default',
        /incompatible field default "x"/,
      ],
      [
        { type: 'record', name: 'R', namespace: 'ns', fields: [{ name: 'a', type: 'Other' }] },
        '/fields/0/type',
        /"Other" is not/,
      ],
      [42, '', /must be a type name/],
    ];
    for (const [schema, pointer, message] of cases) {
      const error = schemaError(() => avroKind.compile(schema));
      expect(error.pointer, JSON.stringify(schema)).to.equal(pointer);
      expect(error.message, JSON.stringify(schema)).to.match(message);
    }
    expect(schemaError(() => avroKind.compile(undefined)).message).to.contain('need a schema');
  });

  it('reads data written with an older schema through schema resolution', () => {
    const v1 = {
      type: 'record',
      name: 'R',
      fields: [
        { name: 'a', type: 'int' },
        { name: 'gone', type: 'string' },
      ],
    };
    const v2 = {
      type: 'record',
      name: 'R',
      fields: [
        { name: 'a', type: 'long' },
        { name: 'added', type: 'string', default: 'none' },
      ],
    };
    const written = avroKind.compile(v1).encode({ a: 7, gone: 'x' });
    // Read with the new schema alone, the old bytes mean something else entirely.
    expect(avroKind.compile(v2).decode(written)).to.deep.equal({ a: 7, added: 'x' });
    const reader = avroKind.compileReader!(v1, v2);
    expect(reader.decode(written)).to.deep.equal({ a: 7, added: 'none' });
    expect(valueError(() => reader.decode(Buffer.from(written).subarray(0, 1))).message).to.contain('/gone');
    const v3 = { type: 'record', name: 'R', fields: [{ name: 'a', type: 'string' }] };
    expect(schemaError(() => avroKind.compileReader!(v1, v3)).message).to.contain('cannot be read with this one');
  });
});
