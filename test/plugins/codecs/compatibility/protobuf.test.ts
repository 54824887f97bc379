import { expect } from 'chai';
import { protobufCompatibility } from '../../../../plugins/codecs/compatibility/protobuf.js';
import { protobufKind } from '../../../../plugins/codecs/kinds/protobuf.js';
import { schemaError } from '../expect-errors.js';

/** A codec schema for `shop.Order` whose message body is `fields`, plus `extra` top-level definitions. */
const order = (fields: string, extra = '', syntax = 'proto3'): { proto: string; message: string } => ({
  proto: `syntax = "${syntax}";\npackage shop;\nmessage Order {\n${fields}\n}\nmessage Item {\n  ${syntax === 'proto2' ? 'optional ' : ''}string sku = 1;\n}\n${extra}`,
  message: 'shop.Order',
});

describe('protobuf schema evolution (backward compatibility)', () => {
  it('is offered by the protobuf kind', () => {
    expect(protobufKind.compatibility).to.equal(protobufCompatibility);
  });

  it('accepts added fields, messages, enum values and removals whose numbers are reserved', () => {
    const before = order(
      '  int64 id = 1;\n  string note = 2;\n  Status status = 3;',
      'enum Status {\n  NEW = 0;\n  OLD = 1;\n}',
    );
    const after = order(
      '  int64 id = 1;\n  reserved 2;\n  reserved "note";\n  Status status = 3;\n  repeated Item items = 4;',
      'enum Status {\n  NEW = 0;\n  reserved 1;\n  PAID = 2;\n}\nmessage Refund {\n  int64 id = 1;\n}',
    );
    expect(protobufCompatibility(before, after)).to.deep.equal([]);
  });

  it('names a field whose type changed', () => {
    expect(protobufCompatibility(order('  int64 amount = 3;'), order('  string amount = 3;'))).to.deep.equal([
      { path: 'shop.Order.amount (field 3)', problem: 'type changed from int64 to string' },
    ]);
    expect(
      protobufCompatibility(
        order('  Item item = 3;'),
        order('  Line item = 3;', 'message Line {\n  string sku = 1;\n}'),
      ),
    ).to.deep.equal([{ path: 'shop.Order.item (field 3)', problem: 'type changed from shop.Item to shop.Line' }]);
    expect(
      protobufCompatibility(order('  map<string, int32> tags = 3;'), order('  map<string, int64> tags = 3;')),
    ).to.deep.equal([
      { path: 'shop.Order.tags (field 3)', problem: 'type changed from map<string, int32> to map<string, int64>' },
    ]);
  });

  it('names a field number reused with another name and type', () => {
    expect(protobufCompatibility(order('  int64 amount = 3;'), order('  string note = 3;'))).to.deep.equal([
      {
        path: 'shop.Order.amount (field 3)',
        problem:
          'field number 3 is now named note: values are read by name, so its data changes meaning (reserve the old number and use a new one)',
      },
      { path: 'shop.Order.amount (field 3)', problem: 'type changed from int64 to string' },
    ]);
  });

  it('names a removed field whose number is not reserved', () => {
    expect(protobufCompatibility(order('  int64 id = 1;\n  string note = 2;'), order('  int64 id = 1;'))).to.deep.equal(
      [
        {
          path: 'shop.Order.note (field 2)',
          problem:
            'field removed without reserving its number: add "reserved 2;" so the number is never reused with another meaning',
        },
      ],
    );
  });

  it('names a change between singular, repeated and map', () => {
    expect(protobufCompatibility(order('  repeated string tags = 2;'), order('  string tags = 2;'))).to.deep.equal([
      { path: 'shop.Order.tags (field 2)', problem: 'changed from repeated to singular' },
    ]);
    expect(protobufCompatibility(order('  string tags = 2;'), order('  repeated string tags = 2;'))).to.deep.equal([
      { path: 'shop.Order.tags (field 2)', problem: 'changed from singular to repeated' },
    ]);
  });

  it("names a removed message or enum, and a switch of the codec's message", () => {
    const withRefund = order('  int64 id = 1;', 'message Refund {\n  int64 id = 1;\n}\nenum Reason {\n  NONE = 0;\n}');
    expect(protobufCompatibility(withRefund, order('  int64 id = 1;'))).to.deep.equal([
      {
        path: 'shop.Refund',
        problem: 'message removed (or renamed, or moved to another package): data that holds it can no longer be read',
      },
      { path: 'shop.Reason', problem: 'enum removed (or renamed, or moved to another package)' },
    ]);
    expect(
      protobufCompatibility(order('  int64 id = 1;'), { ...order('  int64 id = 1;'), message: 'shop.Item' }),
    ).to.deep.equal([
      {
        path: 'shop.Item',
        problem: "the codec's message changed from shop.Order to shop.Item: data written as one is read as the other",
      },
    ]);
    const moved = protobufCompatibility(order('  int64 id = 1;'), {
      proto: order('  int64 id = 1;').proto.replace('package shop;', 'package store;'),
      message: 'store.Order',
    });
    expect(moved.map((problem) => problem.path)).to.deep.equal(['shop.Order', 'shop.Item']);
  });

  it('names enum values removed without reserving their number, or renamed', () => {
    const statuses = (values: string): { proto: string; message: string } =>
      order('  Status status = 1;', `enum Status {\n${values}\n}`);
    expect(protobufCompatibility(statuses('  NEW = 0;\n  PAID = 1;'), statuses('  NEW = 0;'))).to.deep.equal([
      { path: 'shop.Status.PAID (1)', problem: 'enum value removed without reserving its number: add "reserved 1;"' },
    ]);
    expect(
      protobufCompatibility(statuses('  NEW = 0;\n  PAID = 1;'), statuses('  NEW = 0;\n  SETTLED = 1;')),
    ).to.deep.equal([
      { path: 'shop.Status.PAID (1)', problem: 'enum value 1 renamed to SETTLED: values are shown by name' },
    ]);
  });

  it('names fields that became required (proto2)', () => {
    const before = order('  optional int64 id = 1;', '', 'proto2');
    expect(protobufCompatibility(before, order('  required int64 id = 1;', '', 'proto2'))).to.deep.equal([
      { path: 'shop.Order.id (field 1)', problem: 'became required: data written before may lack it' },
    ]);
    expect(
      protobufCompatibility(before, order('  optional int64 id = 1;\n  required string currency = 2;', '', 'proto2')),
    ).to.deep.equal([
      {
        path: 'shop.Order.currency (field 2)',
        problem: 'required field added: data written before has no value for it',
      },
    ]);
  });

  it('names an existing field moved into a oneof with other existing fields', () => {
    const before = order('  string card = 1;\n  string iban = 2;');
    expect(
      protobufCompatibility(before, order('  oneof payment {\n    string card = 1;\n    string iban = 2;\n  }')),
    ).to.deep.equal([
      {
        path: 'shop.Order.card (field 1)',
        problem: 'moved into oneof payment with iban: data written before may set several of them',
      },
      {
        path: 'shop.Order.iban (field 2)',
        problem: 'moved into oneof payment with card: data written before may set several of them',
      },
    ]);
    expect(
      protobufCompatibility(
        before,
        order('  string card = 1;\n  string iban = 2;\n  oneof extra {\n    string wallet = 3;\n  }'),
      ),
    ).to.deep.equal([]);
  });

  it('refuses an invalid .proto on either side', () => {
    expect(schemaError(() => protobufCompatibility(order('  int64 id = 1;'), order('  int64 id = 1'))).line).to.equal(
      5,
    );
  });
});
