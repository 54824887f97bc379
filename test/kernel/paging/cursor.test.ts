import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createCursorCodec } from '../../../kernel/paging/cursor.js';

describe('paging cursors', () => {
  const codec = createCursorCodec(randomBytes(32));

  it('round-trips the key values of the last row within its scope', () => {
    const cursor = codec.encode('scope-a', ['Title', 'id-1', 42]);
    expect(cursor).to.match(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(codec.decode('scope-a', cursor)).to.deep.equal(['Title', 'id-1', 42]);
  });

  it('rejects a cursor of another scope (tenant or filters)', () => {
    expect(codec.decode('scope-b', codec.encode('scope-a', [1]))).to.equal(null);
  });

  it('rejects an edited payload, an edited signature and garbage', () => {
    const cursor = codec.encode('s', [100]);
    const [payload, mac] = cursor.split('.') as [string, string];
    const forged = `${Buffer.from(JSON.stringify([5])).toString('base64url')}.${mac}`;
    expect(codec.decode('s', forged)).to.equal(null);
    expect(codec.decode('s', `${payload}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`)).to.equal(null);
    for (const junk of ['', 'abc', 'a.b', `${payload}`, `${payload}.${mac}.x`, '💥.💥'])
      expect(codec.decode('s', junk), junk).to.equal(null);
  });

  it('rejects a cursor signed with another key', () => {
    expect(createCursorCodec(randomBytes(32)).decode('s', codec.encode('s', [1]))).to.equal(null);
  });
});
