import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { BUILT_IN_CODEC_KINDS } from '../../../../plugins/codecs/kinds/index.js';

/** The smallest valid schema of each kind (undefined where none is needed). */
const minimal: Record<string, unknown> = {
  avro: 'string',
  protobuf: { proto: 'syntax = "proto3";\nmessage M {\n  string s = 1;\n}', message: 'M' },
};

describe('built-in codec kinds', () => {
  it('lists the seven kinds the runtime documents, each once', () => {
    expect(BUILT_IN_CODEC_KINDS.map((kind) => kind.kind)).to.deep.equal([
      'json',
      'text',
      'csv',
      'avro',
      'protobuf',
      'msgpack',
      'cbor',
    ]);
  });

  it("describes each kind's schema field with a valid JSON Schema (or null)", () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    for (const kind of BUILT_IN_CODEC_KINDS) {
      if (kind.schemaSchema === null) continue;
      const validate = ajv.compile(kind.schemaSchema);
      if (minimal[kind.kind] !== undefined) expect(validate(minimal[kind.kind]), kind.kind).to.equal(true);
    }
  });

  it('round-trips a string through every kind that can carry one', () => {
    for (const kind of BUILT_IN_CODEC_KINDS) {
      const codec = kind.compile(minimal[kind.kind]);
      const value = kind.kind === 'protobuf' ? { s: 'héllo' } : kind.kind === 'csv' ? [['héllo']] : 'héllo';
      expect(codec.decode(codec.encode(value)), kind.kind).to.deep.equal(value);
      expect(codec.contentType, kind.kind).to.be.a('string');
    }
  });

  it('offers schema evolution checks for avro and protobuf only', () => {
    expect(BUILT_IN_CODEC_KINDS.filter((kind) => kind.compatibility).map((kind) => kind.kind)).to.deep.equal([
      'avro',
      'protobuf',
    ]);
  });
});
