import { expect } from 'chai';
import { MAX_CONTAINERS } from '../../../../../plugins/codecs/kinds/limits.js';
import { toJsonValue } from '../../../../../plugins/codecs/kinds/shared/json-out.js';
import { valueError } from '../../expect-errors.js';

describe('decoded values crossing out as JSON', () => {
  it('turns 64-bit integers into numbers when safe and decimal strings otherwise', () => {
    expect(toJsonValue([2n ** 53n - 1n, -(2n ** 53n - 1n), 2n ** 53n, -(2n ** 63n), 0n])).to.deep.equal([
      9007199254740991,
      -9007199254740991,
      '9007199254740992',
      '-9223372036854775808',
      0,
    ]);
  });

  it('turns bytes into base64 and other typed arrays into number lists', () => {
    const bytes = Uint8Array.from([0xfb, 0xff]);
    expect(
      toJsonValue({
        buffer: Buffer.from(bytes),
        bytes,
        array: bytes.buffer,
        view: new DataView(bytes.buffer),
        floats: Float32Array.from([1.5, Number.NaN]),
        longs: BigInt64Array.from([2n ** 60n]),
      }),
    ).to.deep.equal({
      buffer: '+/8=',
      bytes: '+/8=',
      array: '+/8=',
      view: '+/8=',
      floats: [1.5, 'NaN'],
      longs: ['1152921504606846976'],
    });
  });

  it('turns maps into objects, sets into arrays, undefined into null, dates into RFC 3339', () => {
    const value = new Map<unknown, unknown>([
      ['a', undefined],
      [1, new Set([1, 2])],
      [true, new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6))],
      [null, -0],
    ]);
    expect(toJsonValue(value)).to.deep.equal({ a: null, 1: [1, 2], true: '2024-01-02T03:04:05.006Z', null: 0 });
    expect(Object.is(toJsonValue(-0), 0)).to.equal(true);
    expect(toJsonValue([Infinity, -Infinity, Number.NaN])).to.deep.equal(['Infinity', '-Infinity', 'NaN']);
  });

  it('keeps a "__proto__" key as data, never as the prototype', () => {
    const out = toJsonValue(new Map([['__proto__', { admin: true }]])) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).to.equal(Object.prototype);
    expect(Object.keys(out)).to.deep.equal(['__proto__']);
    expect(JSON.stringify(out)).to.equal('{"__proto__":{"admin":true}}');
  });

  it('refuses what has no JSON form, naming the pointer', () => {
    expect(valueError(() => toJsonValue({ a: [() => 1] })).pointer).to.equal('/a/0');
    expect(valueError(() => toJsonValue({ when: new Date(Number.NaN) })).message).to.equal(
      '/when: is a date that cannot be represented',
    );
    expect(valueError(() => toJsonValue(new Map([[{}, 1]]))).message).to.equal(
      '/: has a map key that is not a string, number or boolean',
    );
  });

  it('refuses cycles, nesting deeper than 64 levels, and more than MAX_CONTAINERS containers', () => {
    const cycle: unknown[] = [];
    cycle.push([cycle]);
    expect(valueError(() => toJsonValue({ list: cycle })).message).to.equal(
      '/list/0/0: refers to a value that contains it (a cycle)',
    );
    let deep: unknown = 1;
    for (let i = 0; i < 65; i++) deep = [deep];
    expect(valueError(() => toJsonValue(deep)).message).to.match(/^(\/0){64}: is nested deeper than 64 levels$/);
    // A shared (not cyclic) value counts each time it appears: expansion is bounded too.
    const shared = [[]];
    const wide = Array.from({ length: MAX_CONTAINERS }, () => shared);
    expect(valueError(() => toJsonValue(wide)).message).to.equal(
      `the value holds more than ${MAX_CONTAINERS} arrays and objects`,
    );
  });
});
