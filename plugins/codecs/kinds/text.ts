import { CodecSchemaError, CodecValueError } from './errors.js';
import { compiledCodec } from './shared/compiled.js';
import { decodeUtf8, hasLoneSurrogate } from './shared/utf8.js';
import type { CodecKind, CompiledCodec } from './types.js';

/** `text`: the body is UTF-8 text and the value is that string. No schema. */
export const textKind: CodecKind = {
  kind: 'text',
  schemaSchema: null,
  compile(schema: unknown): CompiledCodec {
    if (schema !== undefined && schema !== null) throw new CodecSchemaError('text codecs take no schema');
    return compiledCodec('text', {
      contentType: 'text/plain; charset=utf-8',
      decode: (bytes) => decodeUtf8(bytes),
      encode(value) {
        if (typeof value !== 'string') throw new CodecValueError('/: a text codec encodes a string', { pointer: '' });
        if (hasLoneSurrogate(value))
          throw new CodecValueError('/: contains a lone UTF-16 surrogate, which has no UTF-8 form', { pointer: '' });
        return Buffer.from(value, 'utf8');
      },
    });
  },
};
