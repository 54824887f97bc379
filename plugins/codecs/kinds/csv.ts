import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { CodecValueError } from './errors.js';
import { MAX_CONTAINERS } from './limits.js';
import { compiledCodec } from './shared/compiled.js';
import { asObject, jsonTypeOf } from './shared/json-in.js';
import { childPointer, setOwn, showPointer } from './shared/pointer.js';
import { checkSchemaShape } from './shared/schema-shape.js';
import { decodeUtf8, hasLoneSurrogate } from './shared/utf8.js';
import type { CodecKind, CompiledCodec } from './types.js';

/**
 * `csv`: the body is one CSV document (RFC 4180 quoting) and the value is the array of its
 * records. Schema `{delimiter?, header?, columns?}`:
 * - `delimiter`: one character, default `,`;
 * - `header` (default false): the document's first line names the columns;
 * - `columns`: the column names. With `header` too, the first line must list exactly these.
 * With column names (from `columns` or the header) each record is an object `{column: field}`;
 * without, each record is an array of fields. Fields are strings on decode (CSV has no types);
 * on encode a field may be a string, number, boolean or null (written as an empty field).
 * Empty lines are skipped and every record must have as many fields as there are columns (or
 * as the first record, without names). Encoded documents end lines with CRLF (RFC 4180).
 */
export interface CsvSchema {
  delimiter?: string;
  header?: boolean;
  columns?: string[];
}

const csvSchemaSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    delimiter: { type: 'string', minLength: 1, maxLength: 1, not: { enum: ['"', '\r', '\n'] } },
    header: { type: 'boolean' },
    columns: {
      type: 'array',
      minItems: 1,
      maxItems: 10000,
      uniqueItems: true,
      items: { type: 'string', minLength: 1 },
    },
  },
};

type CsvRecord = string[] | Record<string, string>;

export const csvKind: CodecKind = {
  kind: 'csv',
  schemaSchema: csvSchemaSchema,
  compile(schema: unknown): CompiledCodec {
    if (schema !== undefined && schema !== null) checkSchemaShape('csv', csvSchemaSchema, schema);
    const options = (schema ?? {}) as CsvSchema;
    const delimiter = options.delimiter ?? ',';
    const header = options.header ?? false;
    const columns = options.columns;
    return compiledCodec('csv', {
      contentType: `text/csv; charset=utf-8; header=${header ? 'present' : 'absent'}`,
      decode: (bytes) => decodeCsv(decodeUtf8(bytes), delimiter, header, columns),
      encode: (value) => Buffer.from(encodeCsv(value, delimiter, header, columns), 'utf8'),
    });
  },
};

function decodeCsv(text: string, delimiter: string, header: boolean, columns: string[] | undefined): CsvRecord[] {
  checkLineCount(text);
  const rows = parse(text, {
    delimiter,
    // Line ends may be CRLF (RFC 4180), LF or CR, even mixed in one document.
    record_delimiter: ['\r\n', '\n', '\r'],
    skip_empty_lines: true,
    // With columns, the width check below names them; without, csv-parse holds every record
    // to the first one's width.
    relax_column_count: columns !== undefined,
  });
  let names = columns;
  let body = rows;
  if (header) {
    const first = rows[0];
    if (first === undefined) return [];
    body = rows.slice(1);
    if (names === undefined) names = headerNames(first);
    else if (first.length !== names.length || first.some((name, i) => name !== names?.[i])) {
      throw new CodecValueError(
        `the header line is "${first.join(delimiter)}" but the codec's columns are "${names.join(delimiter)}"`,
        { offset: 0 },
      );
    }
  }
  if (names === undefined) return body;
  const fields = names;
  return body.map((row, index) => {
    if (row.length !== fields.length) {
      throw new CodecValueError(
        `record ${index + 1} has ${row.length} fields but there are ${fields.length} columns (${fields.join(', ')})`,
      );
    }
    const record: Record<string, string> = {};
    fields.forEach((name, i) => setOwn(record, name, row[i] as string));
    return record;
  });
}

/**
 * Refuses documents of more than MAX_CONTAINERS lines before parsing: records cannot outnumber
 * lines, and csv-parse spends a few microseconds on each, so this bounds both the memory and
 * the time a decode takes (csv-parse spends about 1 µs on a one-character record).
 */
function checkLineCount(text: string): void {
  let lines = 1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      lines += 1;
      if (lines > MAX_CONTAINERS) throw new CodecValueError(`the CSV has more than ${MAX_CONTAINERS} lines`);
    }
  }
}

function headerNames(first: string[]): string[] {
  const seen = new Set<string>();
  for (const name of first) {
    if (name === '') throw new CodecValueError('the header line has an empty column name', { offset: 0 });
    if (seen.has(name)) throw new CodecValueError(`the header line names column "${name}" twice`, { offset: 0 });
    seen.add(name);
  }
  return first;
}

function encodeCsv(value: unknown, delimiter: string, header: boolean, columns: string[] | undefined): string {
  if (!Array.isArray(value))
    throw new CodecValueError(`/: a csv codec encodes an array of records, not ${jsonTypeOf(value)}`, { pointer: '' });
  const names = columns ?? (header ? headerFromFirstRecord(value) : undefined);
  const rows: string[][] = [];
  if (header && names !== undefined) rows.push(names);
  value.forEach((record: unknown, index) =>
    rows.push(names === undefined ? arrayRecord(record, index, value) : objectRecord(record, index, names)),
  );
  return stringify(rows, { delimiter, record_delimiter: 'windows' });
}

/** With a header but no `columns`, the first record's keys (in order) name the columns. */
function headerFromFirstRecord(records: unknown[]): string[] | undefined {
  if (records.length === 0) return undefined;
  const first = asObject(records[0]);
  if (!first) throw new CodecValueError('/0: with a header, a record is an object', { pointer: '/0' });
  return Object.keys(first);
}

function arrayRecord(record: unknown, index: number, all: unknown[]): string[] {
  const pointer = childPointer('', index);
  if (!Array.isArray(record))
    throw new CodecValueError(`${pointer}: without columns, a record is an array of fields`, { pointer });
  const width = (all[0] as unknown[]).length;
  if (record.length !== width)
    throw new CodecValueError(`${pointer}: has ${record.length} fields but the first record has ${width}`, { pointer });
  return record.map((field: unknown, i) => csvField(field, childPointer(pointer, i)));
}

function objectRecord(record: unknown, index: number, names: string[]): string[] {
  const pointer = childPointer('', index);
  const object = asObject(record);
  if (!object) throw new CodecValueError(`${pointer}: with columns, a record is an object`, { pointer });
  for (const key of Object.keys(object)) {
    if (!names.includes(key))
      throw new CodecValueError(`${childPointer(pointer, key)}: is not a column (${names.join(', ')})`, {
        pointer: childPointer(pointer, key),
      });
  }
  return names.map((name) => csvField(Object.hasOwn(object, name) ? object[name] : null, childPointer(pointer, name)));
}

function csvField(field: unknown, pointer: string): string {
  if (field === null) return '';
  if (typeof field === 'string') {
    if (hasLoneSurrogate(field)) throw new CodecValueError(`${pointer}: contains a lone UTF-16 surrogate`, { pointer });
    return field;
  }
  if (typeof field === 'number' && Number.isFinite(field)) return String(field);
  if (typeof field === 'boolean') return String(field);
  throw new CodecValueError(
    `${showPointer(pointer)}: a CSV field is a string, number, boolean or null, not ${jsonTypeOf(field)}`,
    { pointer },
  );
}
