import { expect } from 'chai';
import { jsonKind } from '../../../../plugins/codecs/kinds/json.js';
import { MAX_CONTAINERS } from '../../../../plugins/codecs/kinds/limits.js';
import { bytes, schemaError, utf8, valueError } from '../expect-errors.js';

const orderSchema = {
  type: 'object',
  required: ['id', 'items'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: '^[A-Z]{2}-[0-9]+$' },
    placed_at: { type: 'string', format: 'date-time' },
    items: {
      type: 'array',
      items: { type: 'object', required: ['qty'], properties: { qty: { type: 'integer', minimum: 1 } } },
    },
  },
};

describe('codec kind json', () => {
  it('round-trips any JSON value as UTF-8 text when it has no schema', () => {
    const codec = jsonKind.compile(undefined);
    const value = { name: 'Zoë 🚀', list: [1, 2.5, -3, null, true], nested: { deep: ['x'] } };
    const encoded = codec.encode(value);
    expect(Buffer.from(encoded).toString('utf8')).to.equal(JSON.stringify(value));
    expect(codec.decode(encoded)).to.deep.equal(value);
    expect(codec.contentType).to.equal('application/json');
  });

  it('checks values against the JSON Schema on decode and on encode, naming the pointer', () => {
    const codec = jsonKind.compile(orderSchema);
    const good = { id: 'AB-12', placed_at: '2024-05-01T10:00:00Z', items: [{ qty: 2 }] };
    expect(codec.decode(codec.encode(good))).to.deep.equal(good);

    const badQty = valueError(() => codec.encode({ id: 'AB-12', items: [{ qty: 2 }, { qty: 0 }] }));
    expect(badQty.pointer).to.equal('/items/1/qty');
    expect(badQty.message).to.match(/\/items\/1\/qty: must be >= 1/);

    const missing = valueError(() => codec.decode(utf8('{"items": []}')));
    expect(missing.pointer).to.equal('/id');
    expect(missing.message).to.contain('/id: is required');

    const extra = valueError(() => codec.encode({ id: 'AB-1', items: [], note: 'x' }));
    expect(extra.pointer).to.equal('/note');

    const format = valueError(() => codec.encode({ id: 'AB-1', items: [], placed_at: 'yesterday' }));
    expect(format.pointer).to.equal('/placed_at');
  });

  it('refuses bytes that are not UTF-8 JSON, saying where', () => {
    const codec = jsonKind.compile(undefined);
    expect(valueError(() => codec.decode(utf8('{"a": '))).message).to.match(/^not valid json: /);
    const notUtf8 = valueError(() => codec.decode(bytes(0x22, 0xff, 0x22)));
    expect(notUtf8.message).to.equal('the body is not valid UTF-8 (byte 1)');
    expect(notUtf8.offset).to.equal(1);
    expect(codec.decode(bytes(0xef, 0xbb, 0xbf, 0x31))).to.equal(1);
  });

  it('refuses numbers JSON.parse turns into Infinity', () => {
    const error = valueError(() => jsonKind.compile(undefined).decode(utf8('{"a": [1, 1e400]}')));
    expect(error.pointer).to.equal('/a/1');
  });

  it('refuses nesting deeper than 64 levels and more than MAX_CONTAINERS containers before parsing', () => {
    const codec = jsonKind.compile(undefined);
    expect(codec.decode(utf8(`${'['.repeat(64)}${']'.repeat(64)}`))).to.be.an('array');
    expect(valueError(() => codec.decode(utf8(`${'['.repeat(65)}${']'.repeat(65)}`))).message).to.contain(
      'nested deeper than 64 levels',
    );
    expect(
      codec.decode(utf8('["[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\""]')),
    ).to.have.length(1);
    const many = `[${'{},'.repeat(MAX_CONTAINERS)}{}]`;
    expect(valueError(() => codec.decode(utf8(many))).message).to.contain(
      `more than ${MAX_CONTAINERS} arrays and objects`,
    );
  });

  it('encodes only JSON values', () => {
    const codec = jsonKind.compile(undefined);
    expect(valueError(() => codec.encode({ a: [1, Number.NaN] })).pointer).to.equal('/a/1');
    expect(valueError(() => codec.encode({ a: undefined })).pointer).to.equal('/a');
    expect(valueError(() => codec.encode(new Date())).pointer).to.equal('');
  });

  it('refuses an invalid JSON Schema naming the pointer', () => {
    const wrongType = schemaError(() => jsonKind.compile({ type: 'object', properties: { a: { type: 'strin' } } }));
    expect(wrongType.pointer).to.equal('/properties/a/type');
    expect(schemaError(() => jsonKind.compile(5)).message).to.contain('must be a JSON Schema');
    expect(schemaError(() => jsonKind.compile({ $ref: '#/$defs/missing' })).message).to.match(
      /can't resolve reference/,
    );
  });

  it('refuses patterns with nested repeats, which could stall the server on one message', () => {
    const risky = schemaError(() =>
      jsonKind.compile({ type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } }),
    );
    expect(risky.pointer).to.equal('/properties/a/pattern');
    expect(schemaError(() => jsonKind.compile({ patternProperties: { '^(\\w*,?)*$': {} } })).pointer).to.equal(
      '/patternProperties/^(\\w*,?)*$',
    );
    expect(() => jsonKind.compile({ type: 'string', pattern: '^(ab|cd)+[0-9]{2,4}$' })).not.to.throw();
  });

  it('compiles each codec on its own, so two tenants may use the same $id', () => {
    const first = jsonKind.compile({ $id: 'https://example.com/order', type: 'integer' });
    const second = jsonKind.compile({ $id: 'https://example.com/order', type: 'string' });
    expect(first.decode(utf8('5'))).to.equal(5);
    expect(second.decode(utf8('"x"'))).to.equal('x');
    expect(valueError(() => second.decode(utf8('5'))).message).to.contain('must be string');
  });
});
