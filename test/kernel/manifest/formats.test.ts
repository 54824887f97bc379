import { expect } from 'chai';
import { SchemaCompiler } from '../../../kernel/manifest/validators.js';
import { isStorableDate, isStorableDateTime } from '../../../kernel/manifest/formats.js';

describe('request formats the database can store', () => {
  it('accepts ordinary RFC 3339 date-times, with offsets and fractions', () => {
    for (const ok of [
      '2024-02-29T12:00:00Z',
      '1999-12-31T23:59:59.999+05:30',
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59-00:00',
    ])
      expect(isStorableDateTime(ok), ok).to.equal(true);
  });

  it('refuses year 0000, leap seconds, impossible days and offsets', () => {
    for (const bad of [
      '0000-01-01T00:00:00Z',
      '2016-12-31T23:59:60Z',
      '2023-02-29T00:00:00Z',
      '2024-04-31T00:00:00Z',
      '2024-01-01T24:00:00Z',
      '2024-01-01T00:00:00+24:00',
      '2024-01-01T00:00:00',
    ]) {
      expect(isStorableDateTime(bad), bad).to.equal(false);
    }
    expect(isStorableDate('2024-02-29')).to.equal(true);
    expect(isStorableDate('0000-01-01')).to.equal(false);
  });

  it('holds an integer field without declared bounds to the exact range of a JSON number (±2^53−1)', () => {
    const compiler = new SchemaCompiler([]);
    const validate = compiler.compile('p', 'body', {
      type: 'object',
      properties: { n: { type: 'integer' }, bounded: { type: 'integer', maximum: 10 } },
    });
    expect(validate({ n: Number.MAX_SAFE_INTEGER })).to.equal(null);
    expect(validate({ n: 2 ** 63 })?.[0]).to.include({ in: 'body', pointer: '/n' });
    expect(validate({ n: -(2 ** 63) })?.[0]).to.include({ in: 'body', pointer: '/n' });
    expect(validate({ bounded: 11 })?.[0]).to.include({ pointer: '/bounded' });
  });
});
