import { ApiError } from '../../../kernel/errors.js';
import { contribute, createPlugin } from '../../../kernel/plugin/api.js';
import { streamCodecs, type StreamCodec } from '../../../plugins/streams/contract.js';

/** A test-only codec: values are strings, stored upper-cased; bodies must be upper-case ASCII text. */
const upperText: StreamCodec = {
  contentType: 'text/plain; charset=us-ascii',
  encode(value) {
    if (typeof value !== 'string') throw new ApiError('validation_error', 'an upper-text value is a string');
    return Buffer.from(value.toUpperCase(), 'ascii');
  },
  decode(bytes) {
    const text = Buffer.from(bytes).toString('latin1');
    if (!/^[A-Z0-9 ]*$/.test(text))
      throw new ApiError('validation_error', 'an upper-text body holds only A-Z, 0-9 and spaces');
    return text;
  },
};

/** Contributes the streams plugin's codec resolver with one codec, `upper`, in every tenant. */
export const upperTextCodecPlugin = createPlugin({
  id: 'upper-text-codec',
  manifest: { id: 'upper-text-codec', version: '1.0.0', summary: 'Test codec resolver', routes: [] },
  deps: {},
  setup: () => ({
    handlers: {},
    contributions: [
      contribute(streamCodecs, { resolve: async (_db, _tenant, id) => (id === 'upper' ? upperText : undefined) }),
    ],
  }),
});
