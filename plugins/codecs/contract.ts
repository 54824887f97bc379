import { extensionPoint } from '../../kernel/plugin/api.js';
import type { CodecKind } from './kinds/types.js';

/**
 * What the codecs plugin offers other plugins: the extension point through which they
 * contribute codec kinds. The built-in kinds (json, text, csv, avro, protobuf, msgpack, cbor)
 * arrive through it too, from this plugin itself. A plugin in TypeScript may import this file;
 * a plain JavaScript plugin contributes with `{ point: { id: 'codecs.kinds' }, value: { ... } }`.
 *
 * A kind reports a bad schema by throwing from `compile` and bytes or a value that do not fit by
 * throwing from `decode`/`encode`: each becomes a 400 naming the problem. CodecSchemaError and
 * CodecValueError (exported here) also name where (a JSON pointer, a .proto line); any other
 * Error's message is shown as is, so a kind should word it for the caller.
 */

export type { CodecKind, CompatibilityProblem, CompiledCodec } from './kinds/types.js';
export { CodecSchemaError, CodecValueError } from './kinds/errors.js';

export const codecKinds = extensionPoint<CodecKind>('codecs.kinds');
