import type { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * RFC 3339 as the database can store it. ajv-formats accepts every RFC 3339 text, but some of
 * them PostgreSQL and JavaScript's Date cannot hold: year 0000 (there is no year zero), leap
 * seconds (23:59:60 is not an instant Date can name), and months or days out of range. These
 * formats refuse them up front, so such a value is a 400 naming its field, never a 500 later.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function validDay(year: number, month: number, day: number): boolean {
  return year >= 1 && year <= 9999 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
}

export function isStorableDate(text: string): boolean {
  const m = DATE.exec(text);
  return m !== null && validDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

export function isStorableDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  if (!m) return false;
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6])];
  if (!validDay(Number(m[1]), Number(m[2]), Number(m[3])) || hour > 23 || minute > 59 || second > 59) return false;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  return !Number.isNaN(Date.parse(text.replace(' ', 'T')));
}

/** Replaces ajv-formats' `date-time` and `date` with the storable versions. */
export function addStorableFormats(ajv: Ajv2020): Ajv2020 {
  ajv.addFormat('date-time', { type: 'string', validate: isStorableDateTime });
  ajv.addFormat('date', { type: 'string', validate: isStorableDate });
  return ajv;
}

/**
 * JSON numbers past 2^53 lose their value on the way in (JSON.parse makes doubles); an integer
 * field that declares no bounds is held to the exact ones. Applied to request schemas only.
 */
export function boundIntegers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(boundIntegers);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema))
    out[key] =
      key === 'enum' || key === 'const' || key === 'default' || key === 'examples' ? value : boundIntegers(value);
  const type = out.type;
  const integer = type === 'integer' || (Array.isArray(type) && type.includes('integer'));
  if (integer) {
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = Number.MAX_SAFE_INTEGER;
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = -Number.MAX_SAFE_INTEGER;
  }
  return out;
}
