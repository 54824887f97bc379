import { expect } from 'chai';
import { encodeResponse, failure, success } from '../../../../plugins/agent/mcp/jsonrpc.js';
import { errorResult, replyResult, structuredTextOf } from '../../../../plugins/agent/mcp/tool-result.js';
import { ApiError } from '../../../../kernel/errors.js';

describe('encodeResponse', () => {
  const tricky = { items: [{ id: 'a}}', name: 'quote " backslash \\ brace }} nul \u0000 emoji 🎛' }], next: null };

  it('writes a tool result with its structuredContent spliced in, parsing to the same message as plain serialisation', () => {
    const answer = success('req-1', replyResult({ status: 200, body: tricky, headers: { 'X-Next-Cursor': 'c1' } }));
    const text = encodeResponse(answer, structuredTextOf);
    expect(JSON.parse(text)).to.deep.equal(JSON.parse(JSON.stringify(answer)));
    expect(JSON.parse(text).result.structuredContent).to.deep.equal({ ...tricky, next_cursor: 'c1' });
  });

  it('serialises the body once: the text block and structuredContent carry the same JSON', () => {
    const result = replyResult({ status: 201, body: tricky });
    const parsed = JSON.parse(encodeResponse(success(7, result), structuredTextOf));
    expect(JSON.parse(parsed.result.content[0].text)).to.deep.equal(parsed.result.structuredContent);
    expect(parsed).to.include({ jsonrpc: '2.0', id: 7 });
    expect(parsed.result.isError).to.equal(false);
  });

  it('writes other messages as they are: errors, results without structured content, non-object bodies', () => {
    for (const answer of [
      failure(null, -32600, 'Invalid request.'),
      success(1, { tools: [] }),
      success(2, replyResult({ status: 204 })),
      success(3, replyResult({ status: 200, body: [1, 2, 3] })),
      success(4, errorResult(new ApiError('forbidden', 'no'))),
    ]) {
      expect(JSON.parse(encodeResponse(answer, structuredTextOf))).to.deep.equal(JSON.parse(JSON.stringify(answer)));
    }
  });
});
