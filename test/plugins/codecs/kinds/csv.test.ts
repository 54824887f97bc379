import { expect } from 'chai';
import { csvKind } from '../../../../plugins/codecs/kinds/csv.js';
import { MAX_CONTAINERS } from '../../../../plugins/codecs/kinds/limits.js';
import { bytes, schemaError, utf8, valueError } from '../expect-errors.js';

const text = (encoded: Uint8Array): string => Buffer.from(encoded).toString('utf8');

describe('codec kind csv', () => {
  it('decodes a document without header or columns into arrays of string fields', () => {
    const codec = csvKind.compile(undefined);
    const value = codec.decode(utf8('1,"x, ""quoted""",3\r\n\r\n4,"multi\nline",6\n7,8,9'));
    expect(value).to.deep.equal([
      ['1', 'x, "quoted"', '3'],
      ['4', 'multi\nline', '6'],
      ['7', '8', '9'],
    ]);
    expect(codec.contentType).to.equal('text/csv; charset=utf-8; header=absent');
  });

  it('uses the header line as column names', () => {
    const codec = csvKind.compile({ header: true });
    expect(codec.decode(utf8('sku,qty\nA-1,2\nB-2,5\n'))).to.deep.equal([
      { sku: 'A-1', qty: '2' },
      { sku: 'B-2', qty: '5' },
    ]);
    expect(codec.decode(utf8('sku,qty\n'))).to.deep.equal([]);
    expect(codec.decode(utf8(''))).to.deep.equal([]);
    expect(valueError(() => codec.decode(utf8('sku,sku\n1,2\n'))).message).to.equal(
      'the header line names column "sku" twice',
    );
  });

  it('maps fields to the configured columns, and checks the header against them', () => {
    const positional = csvKind.compile({ columns: ['sku', 'qty'], delimiter: ';' });
    expect(positional.decode(utf8('A-1;2\nB-2;5'))).to.deep.equal([
      { sku: 'A-1', qty: '2' },
      { sku: 'B-2', qty: '5' },
    ]);
    expect(valueError(() => positional.decode(utf8('A-1;2\nB-2'))).message).to.equal(
      'record 2 has 1 fields but there are 2 columns (sku, qty)',
    );
    expect(valueError(() => positional.decode(utf8('A-1\nB-2'))).message).to.equal(
      'record 1 has 1 fields but there are 2 columns (sku, qty)',
    );

    const checked = csvKind.compile({ columns: ['sku', 'qty'], header: true, delimiter: '\t' });
    expect(checked.decode(utf8('sku\tqty\nA-1\t2'))).to.deep.equal([{ sku: 'A-1', qty: '2' }]);
    expect(valueError(() => checked.decode(utf8('qty\tsku\n2\tA-1'))).message).to.equal(
      'the header line is "qty\tsku" but the codec\'s columns are "sku\tqty"',
    );
  });

  it('refuses more than MAX_CONTAINERS lines before parsing them', () => {
    const codec = csvKind.compile(undefined);
    expect(codec.decode(utf8('a\n'.repeat(1000)))).to.have.length(1000);
    expect(valueError(() => codec.decode(utf8('a\n'.repeat(MAX_CONTAINERS)))).message).to.equal(
      `the CSV has more than ${MAX_CONTAINERS} lines`,
    );
    expect(valueError(() => codec.decode(utf8('\r'.repeat(MAX_CONTAINERS)))).message).to.equal(
      `the CSV has more than ${MAX_CONTAINERS} lines`,
    );
  });

  it('refuses malformed CSV with the line', () => {
    const codec = csvKind.compile(undefined);
    expect(valueError(() => codec.decode(utf8('a,b\n1,2,3\n'))).message).to.match(/^not valid csv: .*line 2/);
    expect(valueError(() => codec.decode(utf8('a,"b\n'))).message).to.match(/^not valid csv: /);
    expect(valueError(() => codec.decode(bytes(0x61, 0x2c, 0xff))).offset).to.equal(2);
  });

  it('encodes arrays of fields, quoting what needs it, lines ending in CRLF', () => {
    const codec = csvKind.compile(undefined);
    const value = [
      ['a', 'b,c', 'say "hi"'],
      [1, true, null],
    ];
    expect(text(codec.encode(value))).to.equal('a,"b,c","say ""hi"""\r\n1,true,\r\n');
    expect(codec.decode(codec.encode(value))).to.deep.equal([
      ['a', 'b,c', 'say "hi"'],
      ['1', 'true', ''],
    ]);
  });

  it('encodes records as objects under a header, in column order', () => {
    const fromKeys = csvKind.compile({ header: true });
    expect(text(fromKeys.encode([{ sku: 'A', qty: 2 }, { qty: 3, sku: 'B' }, { sku: 'C' }]))).to.equal(
      'sku,qty\r\nA,2\r\nB,3\r\nC,\r\n',
    );
    const configured = csvKind.compile({ header: true, columns: ['sku', 'qty'], delimiter: ';' });
    const records = [{ sku: 'A;1', qty: '2' }];
    expect(configured.decode(configured.encode(records))).to.deep.equal(records);
    expect(text(csvKind.compile({ columns: ['sku'] }).encode([{ sku: 'x' }]))).to.equal('x\r\n');
  });

  it('refuses values that do not fit, naming the pointer', () => {
    const withColumns = csvKind.compile({ columns: ['sku', 'qty'] });
    expect(valueError(() => withColumns.encode([{ sku: 'A' }, { sku: 'B', colour: 'red' }])).pointer).to.equal(
      '/1/colour',
    );
    expect(valueError(() => withColumns.encode([{ sku: { nested: true } }])).message).to.equal(
      '/0/sku: a CSV field is a string, number, boolean or null, not object',
    );
    expect(valueError(() => withColumns.encode([['A', 1]])).pointer).to.equal('/0');
    expect(valueError(() => withColumns.encode({ sku: 'A' })).pointer).to.equal('');
    const plain = csvKind.compile(undefined);
    expect(valueError(() => plain.encode([['a', 'b'], ['c']])).message).to.equal(
      '/1: has 1 fields but the first record has 2',
    );
    expect(valueError(() => plain.encode([{ a: 1 }])).pointer).to.equal('/0');
    expect(valueError(() => csvKind.compile({ header: true }).encode([['a']])).pointer).to.equal('/0');
  });

  it('refuses an invalid schema naming the field', () => {
    expect(schemaError(() => csvKind.compile({ delimiter: ';;' })).pointer).to.equal('/delimiter');
    expect(schemaError(() => csvKind.compile({ delimiter: '"' })).pointer).to.equal('/delimiter');
    expect(schemaError(() => csvKind.compile({ quote: "'" })).message).to.equal(
      'csv schema /quote: is not a known field',
    );
    expect(schemaError(() => csvKind.compile({ columns: ['a', 'a'] })).pointer).to.equal('/columns');
    expect(schemaError(() => csvKind.compile({ header: 'yes' })).pointer).to.equal('/header');
  });
});
