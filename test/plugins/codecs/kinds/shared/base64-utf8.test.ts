import { expect } from 'chai';
import { parseBase64, toBase64 } from '../../../../../plugins/codecs/kinds/shared/base64.js';
import { firstInvalidUtf8 } from '../../../../../plugins/codecs/kinds/shared/utf8.js';

describe('base64 and UTF-8 checks', () => {
  it('accepts standard and URL-safe base64, padded or not, and refuses anything else', () => {
    expect(parseBase64('+/8=')).to.deep.equal(Buffer.from([0xfb, 0xff]));
    expect(parseBase64('-_8')).to.deep.equal(Buffer.from([0xfb, 0xff]));
    expect(parseBase64('')).to.deep.equal(Buffer.alloc(0));
    for (const bad of ['a', 'ab=', 'ab c', 'a+_b', 'YQ==YQ==', '@@@@', 'ab==='])
      expect(parseBase64(bad), bad).to.equal(undefined);
    expect(toBase64(Uint8Array.from([0xfb, 0xff]))).to.equal('+/8=');
  });

  it('finds the first byte of an invalid UTF-8 sequence', () => {
    const at = (...bytes: number[]): number => firstInvalidUtf8(Uint8Array.from(bytes));
    expect(at(0x61, 0x62)).to.equal(2);
    expect(at(0x61, 0x80)).to.equal(1);
    expect(at(0xc0, 0x80)).to.equal(0);
    expect(at(0xe0, 0x80, 0x80)).to.equal(0);
    expect(at(0xed, 0xa0, 0x80)).to.equal(0);
    expect(at(0xf0, 0x9f, 0x9a, 0x80, 0xf5)).to.equal(4);
    expect(at(0xe2, 0x82)).to.equal(0);
  });
});
