import { expect } from 'chai';
import { MAX_CONTAINERS } from '../../../../plugins/codecs/kinds/limits.js';
import { protobufKind } from '../../../../plugins/codecs/kinds/protobuf.js';
import { bytes, schemaError, valueError } from '../expect-errors.js';

const proto = `syntax = "proto3";
package shop;

import "google/protobuf/timestamp.proto";

message Order {
  int64 id = 1;
  string note = 2;
  repeated Item items = 3;
  map<string, int32> tags = 4;
  bytes blob = 5;
  Status status = 6;
  uint64 big = 7;
  double ratio = 8;
  map<int64, Item> by_id = 9;
  oneof payment {
    string card = 10;
    string iban = 11;
  }
  google.protobuf.Timestamp placed_at = 12;
  sint32 delta = 13;
  repeated int32 codes = 14;
  bool gift = 15;
  float weight = 16;
}

message Item {
  string sku = 1;
  uint32 qty = 2;
}

enum Status {
  UNKNOWN = 0;
  PAID = 1;
}
`;

const order = {
  id: '-9223372036854775808',
  note: 'gift',
  items: [{ sku: 'A-1', qty: 2 }, { sku: 'B-2' }],
  tags: { red: 1, blue: -2 },
  blob: 'aGVsbG8=',
  status: 'PAID',
  big: '18446744073709551615',
  ratio: 'NaN',
  by_id: { '5': { sku: 'Z', qty: 1 } },
  iban: 'DE00',
  placed_at: { seconds: '1700000000', nanos: 5 },
  delta: -3,
  codes: [1, 2, 300],
  gift: true,
  weight: 1.5,
};

describe('codec kind protobuf', () => {
  const codec = protobufKind.compile({ proto, message: 'shop.Order' });

  it('round-trips a message through the wire format, with the proto3 JSON mapping', () => {
    expect(codec.decode(codec.encode(order))).to.deep.equal(order);
    expect(codec.contentType).to.equal('application/x-protobuf');
  });

  it('reads the wire format as the protobuf encoding defines it', () => {
    // Field 1 (int64) = 150, field 2 (string) = "hi", field 3 (Item) = {qty: 1}, field 6 = PAID.
    expect(
      codec.decode(bytes(0x08, 0x96, 0x01, 0x12, 0x02, 0x68, 0x69, 0x1a, 0x02, 0x10, 0x01, 0x30, 0x01)),
    ).to.deep.equal({ id: '150', note: 'hi', items: [{ qty: 1 }], status: 'PAID' });
    // Unknown field 99 is skipped; an enum number the enum does not name stays a number.
    expect(codec.decode(bytes(0x98, 0x06, 0x01, 0x30, 0x07))).to.deep.equal({ status: 7 });
    // Default values are not shown.
    expect(codec.decode(codec.encode({ id: 0, note: '', items: [], gift: false }))).to.deep.equal({});
    expect(codec.encode({ id: 150 })).to.deep.equal(bytes(0x08, 0x96, 0x01));
  });

  it('refuses values that do not fit, naming the pointer', () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ nope: 1 }, '/nope', /is not a field of shop.Order \(id, note, items,/],
      [{ id: 'twelve' }, '/id', /expected an integer \(int64\), got string/],
      [{ id: '9223372036854775808' }, '/id', /out of the int64 range/],
      [{ id: 2 ** 60 }, '/id', /write it as a decimal string/],
      [{ big: '-1' }, '/big', /out of the uint64 range/],
      [{ items: [{ sku: 'A' }, { qty: -1 }] }, '/items/1/qty', /-1 is out of the uint32 range/],
      [{ items: { sku: 'A' } }, '/items', /expected an array \(repeated Item\)/],
      [{ items: [{ sku: 5 }] }, '/items/0/sku', /expected a string/],
      [{ tags: { red: 2 ** 31 } }, '/tags/red', /out of the int32 range/],
      [{ by_id: { five: { sku: 'Z' } } }, '/by_id/five', /a int64 map key is a decimal integer/],
      [{ blob: 'a=b' }, '/blob', /not valid base64/],
      [{ status: 'LOST' }, '/status', /"LOST" is not a value of enum shop.Status \(UNKNOWN, PAID\)/],
      [{ card: '4111', iban: 'DE00' }, '', /sets card and iban, but only one member of oneof payment may be set/],
      [{ ratio: 'lots' }, '/ratio', /expected a number \(double\)/],
      [{ weight: 1e39 }, '/weight', /out of the float range/],
      [{ gift: 'yes' }, '/gift', /expected a boolean/],
      [
        { placed_at: { seconds: '1', minutes: 2 } },
        '/placed_at/minutes',
        /is not a field of google.protobuf.Timestamp/,
      ],
      [[1], '', /expected an object \(message shop.Order\), got array/],
    ];
    for (const [value, pointer, message] of cases) {
      const error = valueError(() => codec.encode(value));
      expect(error.pointer, JSON.stringify(value)).to.equal(pointer);
      expect(error.message, JSON.stringify(value)).to.match(message);
    }
  });

  it('refuses a missing proto2 required field', () => {
    const legacy = protobufKind.compile({
      proto:
        'syntax = "proto2";\nmessage Ping {\n  required string host = 1;\n  optional int32 ttl = 2 [default = 64];\n}',
      message: 'Ping',
    });
    expect(legacy.decode(legacy.encode({ host: 'a' }))).to.deep.equal({ host: 'a' });
    expect(valueError(() => legacy.encode({ ttl: 3 })).pointer).to.equal('/host');
    expect(valueError(() => legacy.decode(bytes(0x10, 0x03))).message).to.match(/^not valid protobuf: .*host/);
  });

  it('refuses malformed wire data quickly, whatever the lengths claim', () => {
    const cases: Array<[Uint8Array, RegExp]> = [
      [bytes(0x08), /ends inside a varint/],
      [bytes(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), /longer than 10 bytes/],
      [
        bytes(0x1a, 0xff, 0xff, 0xff, 0xff, 0x07, 0x01),
        /^\/items\/0: a length of 2147483647 bytes exceeds the 1 that remain \(byte 0\)$/,
      ],
      [bytes(0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f), /exceeds/],
      [bytes(0x0f, 0x00), /wire type 7 does not exist/],
      [bytes(0x00, 0x01), /a field has number 0/],
      [bytes(0x1b, 0x08, 0x01), /group of field 3 is not closed/],
      [bytes(0x0c), /end-group tag for field 1 has no matching start/],
      [
        bytes(0x1a, 0x00, 0x1a, 0x03, 0x0a, 0x05, 0x41),
        /^\/items\/1\/sku: a length of 5 bytes exceeds the 1 that remain \(byte 4\)$/,
      ],
    ];
    for (const [data, message] of cases) expect(valueError(() => codec.decode(data)).message).to.match(message);
  });

  it('refuses values nested deeper than 64 JSON levels and more than MAX_CONTAINERS messages', () => {
    const tree = protobufKind.compile({
      proto: 'syntax = "proto3";\nmessage Node {\n  Node child = 1;\n  repeated Node children = 2;\n}',
      message: 'Node',
    });
    /** `levels` messages, each the `tag` field of the one above. */
    const nest = (levels: number, tag: number): Buffer => {
      let inner = Buffer.alloc(0);
      for (let i = 1; i < levels; i++) inner = Buffer.concat([Buffer.from([tag]), encodeVarint(inner.length), inner]);
      return inner;
    };
    expect(tree.decode(nest(64, 0x0a))).to.have.property('child');
    expect(valueError(() => tree.decode(nest(65, 0x0a))).message).to.contain('nested deeper than 64 levels');
    // In a list each message is two JSON levels down: {children: [{...}]}.
    expect(tree.decode(nest(32, 0x12))).to.have.property('children');
    expect(valueError(() => tree.decode(nest(33, 0x12))).message).to.match(
      /^(\/children\/0){32}: the message is nested deeper than 64 levels/,
    );
    const flat = Buffer.alloc(2 * MAX_CONTAINERS, Buffer.from([0x0a, 0x00]));
    expect(valueError(() => tree.decode(flat)).message).to.contain(`more than ${MAX_CONTAINERS} messages`);
  });

  it('refuses an invalid .proto naming the line', () => {
    const cases: Array<[string, string, number | undefined, RegExp]> = [
      ['syntax = "proto3";\nmessage A {\n  int32 x = 1\n}', 'A', 4, /illegal token '}'/],
      ['syntax = "proto3";\nmessage A {\n  int32 x = 1;\n  strin y = 2;\n}', 'A', 4, /no such Type or Enum 'strin'/],
      ['syntax = "proto3";\nmessage A {\n  int32 x = 1;\n  int32 y = 1;\n}', 'A', 4, /duplicate id 1/],
      ['syntax = "proto3";\nmessage A {\n  int32 x = 0;\n}', 'A', 3, /field number 0 is not allowed/],
      ['syntax = "proto3";\nmessage A {\n  int32 x = 19000;\n}', 'A', 3, /field number 19000 is not allowed/],
      ['syntax = "proto3";\nmessage A {\n  reserved 2;\n  int32 x = 2;\n}', 'A', 4, /id 2 is reserved/],
      [
        'syntax = "proto3";\nenum E {\n  ONE = 1;\n}\nmessage A {\n  E e = 1;\n}',
        'A',
        2,
        /first value of a proto3 enum must be 0/,
      ],
      [
        'syntax = "proto3";\nimport "other.proto";\nmessage A {\n  int32 x = 1;\n}',
        'A',
        2,
        /import "other.proto" is not available/,
      ],
    ];
    for (const [text, message, line, problem] of cases) {
      const error = schemaError(() => protobufKind.compile({ proto: text, message }));
      expect(error.pointer, text).to.equal('/proto');
      expect(error.line, text).to.equal(line);
      expect(error.message, text).to.match(problem);
      expect(error.message, text).to.contain(`/proto line ${line}:`);
    }
  });

  it('refuses an unknown message type, listing the defined ones', () => {
    const error = schemaError(() => protobufKind.compile({ proto, message: 'shop.Refund' }));
    expect(error.pointer).to.equal('/message');
    expect(error.message).to.equal(
      'protobuf schema /message: "shop.Refund" is not a message type of the .proto (it defines: shop.Order, shop.Item)',
    );
    expect(schemaError(() => protobufKind.compile({ proto, message: 'shop.Status' })).pointer).to.equal('/message');
  });

  it('never reads imports from the file system', () => {
    for (const file of [
      '/etc/hostname',
      'package.json',
      '../../../../etc/passwd',
      'google/protobuf/../../../package.json',
      'google/protobuf/constructor',
    ]) {
      const error = schemaError(() =>
        protobufKind.compile({
          proto: `syntax = "proto3";\nimport "${file}";\nmessage A {\n  int32 x = 1;\n}`,
          message: 'A',
        }),
      );
      expect(error.message).to.contain(`import "${file}" is not available`);
    }
  });

  it('refuses a schema of the wrong shape naming the field', () => {
    expect(schemaError(() => protobufKind.compile({ proto })).pointer).to.equal('');
    expect(schemaError(() => protobufKind.compile({ proto, message: 'shop.Order', options: {} })).pointer).to.equal(
      '/options',
    );
    expect(schemaError(() => protobufKind.compile({ proto, message: 'shop..Order' })).pointer).to.equal('/message');
    expect(schemaError(() => protobufKind.compile(undefined)).message).to.contain('need a schema');
  });
});

function encodeVarint(value: number): Buffer {
  const out: number[] = [];
  let rest = value;
  do {
    const low = rest & 0x7f;
    rest = Math.floor(rest / 128);
    out.push(rest > 0 ? low | 0x80 : low);
  } while (rest > 0);
  return Buffer.from(out);
}
