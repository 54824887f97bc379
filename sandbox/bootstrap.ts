/**
 * Guest code evaluated in every fresh context before any tenant code: it builds the contract's
 * globals (`service`, `console`, `result`) around three host functions and returns the two
 * functions the host drives the run with. It captures the intrinsics it relies on
 * (`JSON.stringify`, `JSON.parse`, `Uint8Array`) first, so a script that replaces them changes
 * only its own view, never what the host receives: the host only ever gets strings from here.
 *
 * `Math.random` is xoshiro128** seeded by the host for every run: QuickJS seeds its own once per
 * context, so a session reset to its snapshot (snapshot.ts) would give every run the same numbers.
 *
 * Host functions (see evaluate.ts): `hostPush(json)`, `hostLog(line)`, `hostUtf8(buffer, offset, length)`.
 * Returns `[setup(json, bytes?), serialize(value)]`.
 */
export const BOOTSTRAP = String.raw`(function (hostPush, hostLog, hostUtf8) {
  'use strict';
  const g = globalThis;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const U8 = Uint8Array;
  const ab = ArrayBuffer;
  const str = String;
  const freeze = Object.freeze;
  const define = Object.defineProperty;
  const keys = Object.keys;
  const bufferOf = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(U8.prototype), 'buffer').get;
  const offsetOf = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(U8.prototype), 'byteOffset').get;
  const lengthOf = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(U8.prototype), 'byteLength').get;
  const call = Function.prototype.call.bind(Function.prototype.call);

  function text(raw) {
    if (typeof raw === 'string') return raw;
    if (raw instanceof U8) return hostUtf8(call(bufferOf, raw), call(offsetOf, raw), call(lengthOf, raw));
    if (raw instanceof ab) return hostUtf8(raw, 0, raw.byteLength);
    throw new TypeError('service.json.decode expects a string or a Uint8Array');
  }
  function decode(raw) {
    const source = text(raw);
    try {
      return parse(source);
    } catch (err) {
      throw new SyntaxError('service.json.decode: invalid JSON: ' + (err && err.message));
    }
  }
  function push(value) {
    const json = stringify(value);
    if (json === undefined) throw new TypeError('service.route.push: the value is not JSON');
    hostPush(json);
  }
  function show(value) {
    if (typeof value === 'string') return value;
    if (typeof value === 'object' && value !== null) {
      try {
        const json = stringify(value);
        if (json !== undefined) return json;
      } catch (err) {}
    }
    return str(value);
  }
  function log() {
    let line = '';
    for (let i = 0; i < arguments.length; i++) line += (i ? ' ' : '') + show(arguments[i]);
    hostLog(line);
  }
  const imul = Math.imul;
  let s0 = 1, s1 = 2, s2 = 3, s3 = 4;
  function rotl(x, k) {
    return (x << k) | (x >>> (32 - k));
  }
  function next() {
    const out = imul(rotl(imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 11);
    return out;
  }
  function random() {
    return ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992;
  }
  define(Math, 'random', { value: random, writable: true, enumerable: false, configurable: true });
  const fixed = (value) => ({ value, writable: false, enumerable: false, configurable: false });
  define(g, 'service', fixed(freeze({ json: freeze({ decode }), route: freeze({ push }) })));
  define(g, 'console', fixed(freeze({ log })));
  g.result = undefined;

  function setup(json, bytes) {
    const values = parse(json);
    const seed = values.seed;
    s0 = seed[0] | 0; s1 = seed[1] | 0; s2 = seed[2] | 0; s3 = (seed[3] | 0) || 1;
    if (bytes !== undefined) values.input.body = new U8(bytes);
    g.input = values.input;
    const names = keys(values.globals);
    for (let i = 0; i < names.length; i++) g[names[i]] = values.globals[names[i]];
  }
  function serialize(value) {
    return stringify(value);
  }
  return [setup, serialize];
})`;
