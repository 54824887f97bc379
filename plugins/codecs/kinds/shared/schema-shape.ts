import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { CodecSchemaError } from '../errors.js';
import { childPointer, showPointer } from './pointer.js';

// The kinds' own schema-schemas are trusted and few: one Ajv instance compiles each once.
const ajv = new Ajv2020({ allErrors: false, strict: true, allowUnionTypes: true });
const compiled = new WeakMap<object, ValidateFunction>();

/** Checks a codec's `schema` field against its kind's schemaSchema; CodecSchemaError names the pointer. */
export function checkSchemaShape(kind: string, schemaSchema: object, schema: unknown): void {
  let validate = compiled.get(schemaSchema);
  if (!validate) {
    validate = ajv.compile(schemaSchema);
    compiled.set(schemaSchema, validate);
  }
  if (validate(schema)) return;
  const error = (validate.errors as ErrorObject[])[0] as ErrorObject;
  const extra =
    error.keyword === 'additionalProperties'
      ? String((error.params as { additionalProperty: string }).additionalProperty)
      : undefined;
  const pointer = extra === undefined ? error.instancePath : childPointer(error.instancePath, extra);
  const problem = extra === undefined ? (error.message ?? 'is not valid') : 'is not a known field';
  throw new CodecSchemaError(`${kind} schema ${showPointer(pointer)}: ${problem}`, { pointer });
}
