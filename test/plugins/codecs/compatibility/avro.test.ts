import { expect } from 'chai';
import { avroCompatibility } from '../../../../plugins/codecs/compatibility/avro.js';
import { avroKind } from '../../../../plugins/codecs/kinds/avro.js';
import { schemaError } from '../expect-errors.js';

const record = (fields: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'record',
  name: 'Order',
  namespace: 'shop',
  fields,
  ...extra,
});
const status = (symbols: string[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'enum',
  name: 'Status',
  symbols,
  ...extra,
});

describe('avro schema evolution (backward compatibility)', () => {
  it('is offered by the avro kind', () => {
    expect(avroKind.compatibility).to.equal(avroCompatibility);
  });

  it('accepts changes a new reader can resolve', () => {
    const before = record([
      { name: 'id', type: 'int' },
      { name: 'note', type: 'string' },
      { name: 'ratio', type: 'float' },
      { name: 'status', type: status(['NEW']) },
      { name: 'obsolete', type: 'bytes' },
    ]);
    const after = record([
      { name: 'id', type: 'long' },
      { name: 'note', type: ['null', 'bytes'] },
      { name: 'ratio', type: 'double' },
      { name: 'status', type: status(['NEW', 'PAID']) },
      { name: 'channel', type: 'string', default: 'web' },
      { name: 'coupon', type: ['null', 'string'], default: null },
    ]);
    expect(avroCompatibility(before, after)).to.deep.equal([]);
  });

  it('names a field added without a default', () => {
    expect(
      avroCompatibility(
        record([{ name: 'id', type: 'int' }]),
        record([
          { name: 'id', type: 'int' },
          { name: 'currency', type: 'string' },
        ]),
      ),
    ).to.deep.equal([
      {
        path: 'shop.Order.currency',
        problem: 'field added without a default: data written before has no value for it',
      },
    ]);
  });

  it('names a type change that does not promote', () => {
    expect(
      avroCompatibility(record([{ name: 'amount', type: 'long' }]), record([{ name: 'amount', type: 'int' }])),
    ).to.deep.equal([{ path: 'shop.Order.amount', problem: 'type changed from long to int, which does not promote' }]);
    expect(
      avroCompatibility(record([{ name: 'amount', type: 'double' }]), record([{ name: 'amount', type: 'string' }]))[0]
        ?.problem,
    ).to.equal('type changed from double to string, which does not promote');
  });

  it('names a removed enum symbol, unless the enum has a default', () => {
    const before = record([{ name: 'status', type: status(['NEW', 'PAID', 'REFUNDED']) }]);
    expect(avroCompatibility(before, record([{ name: 'status', type: status(['NEW', 'PAID']) }]))).to.deep.equal([
      {
        path: 'shop.Order.status',
        problem: 'enum symbol REFUNDED removed (and the enum has no default to read it as)',
      },
    ]);
    expect(
      avroCompatibility(before, record([{ name: 'status', type: status(['NEW', 'PAID'], { default: 'NEW' }) }])),
    ).to.deep.equal([]);
  });

  it('treats a removed field as backward compatible, and as a forward break when it has no default', () => {
    const before = record([
      { name: 'id', type: 'int' },
      { name: 'note', type: 'string' },
    ]);
    const after = record([{ name: 'id', type: 'int' }]);
    expect(avroCompatibility(before, after)).to.deep.equal([]);
    // Forward: a reader still on the old schema reading new data.
    expect(avroCompatibility(after, before)).to.deep.equal([
      { path: 'shop.Order.note', problem: 'field added without a default: data written before has no value for it' },
    ]);
  });

  it('names union branches the new schema cannot read', () => {
    expect(
      avroCompatibility(
        record([{ name: 'note', type: ['null', 'string'] }]),
        record([{ name: 'note', type: 'string' }]),
      ),
    ).to.deep.equal([{ path: 'shop.Order.note', problem: 'type changed from null to string, which does not promote' }]);
    expect(
      avroCompatibility(
        record([{ name: 'v', type: ['int', 'string'] }]),
        record([{ name: 'v', type: ['int', 'boolean'] }]),
      ),
    ).to.deep.equal([
      {
        path: 'shop.Order.v',
        problem:
          'the union no longer has a branch that reads string (it was union<int, string>, now union<int, boolean>)',
      },
    ]);
    expect(
      avroCompatibility(record([{ name: 'v', type: 'string' }]), record([{ name: 'v', type: ['null', 'int'] }])),
    ).to.deep.equal([
      {
        path: 'shop.Order.v',
        problem: 'type changed from string to union<null, int>, which has no branch that reads it',
      },
    ]);
    expect(
      avroCompatibility(record([{ name: 'v', type: 'int' }]), record([{ name: 'v', type: ['null', 'double'] }])),
    ).to.deep.equal([]);
  });

  it('names renamed records unless aliased, and resized fixed types', () => {
    const item = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
      type: 'record',
      name,
      fields: [{ name: 'sku', type: 'string' }],
      ...extra,
    });
    expect(
      avroCompatibility(record([{ name: 'item', type: item('Item') }]), record([{ name: 'item', type: item('Line') }])),
    ).to.deep.equal([
      {
        path: 'shop.Order.item',
        problem:
          'record renamed from shop.Item to shop.Line (list "shop.Item" in its aliases to keep reading old data)',
      },
    ]);
    expect(
      avroCompatibility(
        record([{ name: 'item', type: item('Item') }]),
        record([{ name: 'item', type: item('Line', { aliases: ['Item'] }) }]),
      ),
    ).to.deep.equal([]);
    const hash = (size: number): Record<string, unknown> => ({ type: 'fixed', name: 'Hash', size });
    expect(
      avroCompatibility(record([{ name: 'h', type: hash(16) }]), record([{ name: 'h', type: hash(32) }])),
    ).to.deep.equal([{ path: 'shop.Order.h', problem: 'fixed size changed from 16 to 32' }]);
  });

  it('follows arrays, maps and renamed fields (through aliases) to name the nested path', () => {
    const line = (qty: string): Record<string, unknown> => ({
      type: 'array',
      items: { type: 'record', name: 'Line', fields: [{ name: 'qty', type: qty }] },
    });
    expect(
      avroCompatibility(
        record([{ name: 'lines', type: line('int') }]),
        record([{ name: 'lines', type: line('string') }]),
      ),
    ).to.deep.equal([
      { path: 'shop.Order.lines[].qty', problem: 'type changed from int to string, which does not promote' },
    ]);
    expect(
      avroCompatibility(
        record([{ name: 'tags', type: { type: 'map', values: 'string' } }]),
        record([{ name: 'tags', type: { type: 'map', values: 'int' } }]),
      ),
    ).to.deep.equal([
      { path: 'shop.Order.tags{}', problem: 'type changed from string to int, which does not promote' },
    ]);
    expect(
      avroCompatibility(
        record([{ name: 'qty', type: 'int' }]),
        record([{ name: 'quantity', type: 'int', aliases: ['qty'] }]),
      ),
    ).to.deep.equal([]);
  });

  it('handles recursive schemas', () => {
    const node = (value: string): Record<string, unknown> => ({
      type: 'record',
      name: 'Node',
      fields: [
        { name: 'value', type: value },
        { name: 'next', type: ['null', 'Node'] },
      ],
    });
    expect(avroCompatibility(node('int'), node('long'))).to.deep.equal([]);
    expect(avroCompatibility(node('long'), node('int'))).to.deep.equal([
      { path: 'Node.value', problem: 'type changed from long to int, which does not promote' },
    ]);
  });

  it('refuses an invalid schema on either side', () => {
    expect(
      schemaError(() => avroCompatibility(record([{ name: 'a', type: 'int' }]), record([{ name: 'a', type: 'nope' }])))
        .pointer,
    ).to.equal('/fields/0/type');
  });
});
