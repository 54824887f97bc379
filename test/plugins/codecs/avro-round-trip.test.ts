import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { randomSchema, randomValue, seeded } from './avro-generate.js';
import { decode, encode } from './http.js';

/**
 * Avro round trips over the real codec routes, for many generated schemas (records, nested
 * records, references to named types, enums, fixed, bytes, maps, arrays, unions with and without
 * null, every logical type) and values (edge integers, longs beyond 2^53, NaN, ±Infinity, -0,
 * unicode, `__proto__` keys), seeded so a failure replays: encode(value) → bytes;
 * decode(bytes) → the value again (floats as float32 rounds them); encode(decoded) → the same bytes.
 */

const SEED = 20261128;
const SCHEMAS = 40;
const VALUES_PER_SCHEMA = 5;

describe('codecs: Avro values decode and encode back to the same bytes, for generated schemas', function () {
  this.timeout(600_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'codecs'], auth: { mode: 'none' } });
  });
  after(() => tk?.close());

  it(`round-trips ${SCHEMAS} schemas × ${VALUES_PER_SCHEMA} values (seed ${SEED})`, async () => {
    const random = seeded(SEED);
    const failures: string[] = [];
    let trips = 0;
    for (let index = 0; index < SCHEMAS; index++) {
      const { schema, node, hasFloat } = randomSchema(random, index);
      const id = `gen-${index}`;
      const created = await tk.request('POST', '/codecs', { body: { id, name: id, kind: 'avro', schema } });
      if (created.status !== 201) {
        failures.push(`schema ${index} refused: ${created.text}\n${JSON.stringify(schema)}`);
        continue;
      }
      for (let v = 0; v < VALUES_PER_SCHEMA; v++) {
        const value = randomValue(random, node);
        const where = `schema ${index} value ${v}: ${JSON.stringify(value)}\n  schema ${JSON.stringify(schema)}`;
        const first = await encode(tk, id, value);
        if (first.status !== 200) {
          failures.push(`${where}\n  encode → ${first.status} ${JSON.stringify(first.body)}`);
          continue;
        }
        const decoded = await decode(tk, id, first.bytes);
        if (decoded.status !== 200) {
          failures.push(`${where}\n  decode → ${decoded.status} ${decoded.text}`);
          continue;
        }
        if (!hasFloat && JSON.stringify(decoded.body.value) !== JSON.stringify(value))
          failures.push(`${where}\n  decoded as ${JSON.stringify(decoded.body.value)}`);
        const again = await encode(tk, id, decoded.body.value);
        if (again.status !== 200)
          failures.push(`${where}\n  the decoded value does not encode: ${JSON.stringify(again.body)}`);
        else if (!again.bytes.equals(first.bytes))
          failures.push(
            `${where}\n  encodes to other bytes: ${first.bytes.toString('hex')} → ${again.bytes.toString('hex')}`,
          );
        trips++;
      }
    }
    expect(failures, `${failures.length} failures:\n${failures.slice(0, 8).join('\n')}`).to.deep.equal([]);
    expect(trips).to.equal(SCHEMAS * VALUES_PER_SCHEMA);
  });
});
