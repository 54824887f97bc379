import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ErrorDetail } from '../errors.js';
import type { Manifest } from './types.js';
import { localSchemaName, rewriteRefs } from './compile.js';
import { addStorableFormats, boundIntegers } from './formats.js';

// ajv-formats is CommonJS; its callable is the default export under NodeNext resolution.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export type Validator = (value: unknown) => ErrorDetail[] | null;

function pluginSchemaId(plugin: string): string {
  return `plugin:${plugin}`;
}

/** Maps a plugin-local `#/schemas/Name` reference to its registered id in ajv. */
function ajvRef(plugin: string): (ref: string) => string {
  return (ref) => {
    const name = localSchemaName(ref);
    return name === undefined ? ref : `${pluginSchemaId(plugin)}#/$defs/${name}`;
  };
}

function toDetails(part: string, errors: readonly ErrorObject[]): ErrorDetail[] {
  return errors.map((e) => {
    let pointer = e.instancePath;
    if (e.keyword === 'required') pointer += `/${String(e.params.missingProperty)}`;
    if (e.keyword === 'additionalProperties') pointer += `/${String(e.params.additionalProperty)}`;
    const message = e.keyword === 'additionalProperties' ? 'is not an allowed field' : e.message ?? 'is invalid';
    return { in: part, pointer: pointer || '/', message };
  });
}

/**
 * Checks every route schema at boot and compiles each at its route's first request: ajv's code
 * generation for all routes was a sixth of the kernel's start. Query strings and path params
 * are coerced from text (`?limit=5` is an integer); JSON bodies are not coerced, so a wrong
 * type is an error.
 */
export class SchemaCompiler {
  private readonly text = addStorableFormats(addFormats(new Ajv2020({ allErrors: true, strict: false, coerceTypes: 'array', useDefaults: true })));
  // Schemas are checked against the meta-schema once, by `text`; compiling the meta-schema
  // again for this second instance cost 50 ms of every start.
  private readonly json = addStorableFormats(addFormats(new Ajv2020({ allErrors: true, strict: false, useDefaults: true, validateSchema: false })));

  constructor(manifests: readonly Manifest[]) {
    for (const manifest of manifests) {
      const defs = boundIntegers(rewriteRefs(manifest.schemas ?? {}, ajvRef(manifest.id))) as Record<string, unknown>;
      const document = { $id: pluginSchemaId(manifest.id), $defs: defs };
      this.text.addSchema(document);
      this.json.addSchema(document);
    }
  }

  /** Throws now when the schema breaks JSON Schema; the validating code is generated at first use. */
  compile(plugin: string, part: 'params' | 'query' | 'body', schema: Record<string, unknown>): Validator {
    const ajv = part === 'body' ? this.json : this.text;
    const rewritten = boundIntegers(rewriteRefs(schema, ajvRef(plugin))) as object;
    if (!this.text.validateSchema(rewritten)) throw new Error(`${plugin} ${part} schema is invalid: ${this.text.errorsText(this.text.errors)}`);
    let validate: ValidateFunction | undefined;
    return (value) => {
      validate ??= ajv.compile(rewritten);
      return validate(value) ? null : toDetails(part, validate.errors ?? []);
    };
  }
}
