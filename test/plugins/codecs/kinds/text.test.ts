import { expect } from 'chai';
import { textKind } from '../../../../plugins/codecs/kinds/text.js';
import { bytes, schemaError, utf8, valueError } from '../expect-errors.js';

describe('codec kind text', () => {
  const codec = textKind.compile(undefined);

  it('round-trips UTF-8 text', () => {
    const text = 'line 1\nZoë, 東京, 🚀';
    expect(codec.decode(codec.encode(text))).to.equal(text);
    expect(Buffer.from(codec.encode(text)).equals(Buffer.from(text, 'utf8'))).to.equal(true);
    expect(codec.contentType).to.equal('text/plain; charset=utf-8');
  });

  it('refuses invalid UTF-8 naming the first bad byte', () => {
    expect(valueError(() => codec.decode(bytes(0x61, 0xc3, 0x28))).offset).to.equal(1);
    expect(valueError(() => codec.decode(bytes(0x61, 0x62, 0xc0, 0xaf))).message).to.equal(
      'the body is not valid UTF-8 (byte 2)',
    );
    expect(valueError(() => codec.decode(bytes(0xed, 0xa0, 0x80))).offset).to.equal(0);
    expect(valueError(() => codec.decode(bytes(0x61, 0xf0, 0x9f, 0x9a))).offset).to.equal(1);
    expect(valueError(() => codec.decode(bytes(0xf4, 0x90, 0x80, 0x80))).offset).to.equal(0);
    expect(codec.decode(utf8(''))).to.equal('');
  });

  it('encodes only well-formed strings', () => {
    expect(valueError(() => codec.encode(5)).message).to.equal('/: a text codec encodes a string');
    expect(valueError(() => codec.encode('a\uD800b')).message).to.contain('lone UTF-16 surrogate');
  });

  it('takes no schema', () => {
    expect(schemaError(() => textKind.compile({ charset: 'latin1' })).message).to.equal('text codecs take no schema');
    expect(textKind.schemaSchema).to.equal(null);
  });
});
