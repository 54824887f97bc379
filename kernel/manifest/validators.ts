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
    const message = e.keyword === 'additionalProperties' ? 'is not an allowed field' : (e.message ?? 'is invalid');
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
  // Neither instance checks schemas against JSON Schema itself: `check` does, once per schema,
  // and only for plugins not in `trusted` (the built-in ones, whose schemas a test checks once,
  // test/kernel/own-schemas.test.ts): compiling the meta-schema cost ~50 ms of every start.
  private readonly text = addStorableFormats(
    addFormats(
      new Ajv2020({ allErrors: true, strict: false, coerceTypes: 'array', useDefaults: true, validateSchema: false }),
    ),
  );
  private readonly json = addStorableFormats(
    addFormats(new Ajv2020({ allErrors: true, strict: false, useDefaults: true, validateSchema: false })),
  );
  private checker: Ajv2020 | undefined;

  constructor(
    manifests: readonly Manifest[],
    private readonly trusted: ReadonlySet<string> = new Set(),
  ) {
    for (const manifest of manifests) {
      const defs = boundIntegers(rewriteRefs(manifest.schemas ?? {}, ajvRef(manifest.id))) as Record<string, unknown>;
      const document = { $id: pluginSchemaId(manifest.id), $defs: defs };
      this.check(manifest.id, 'schemas', document);
      this.text.addSchema(document);
      this.json.addSchema(document);
    }
  }

  /** Throws now when the schema breaks JSON Schema; the validating code is generated at first use. */
  compile(plugin: string, part: 'params' | 'query' | 'body', schema: Record<string, unknown>): Validator {
    const ajv = part === 'body' ? this.json : this.text;
    const rewritten = boundIntegers(rewriteRefs(schema, ajvRef(plugin))) as object;
    this.check(plugin, part, rewritten);
    let validate: ValidateFunction | undefined;
    return (value) => {
      validate ??= ajv.compile(rewritten);
      return validate(value) ? null : toDetails(part, validate.errors ?? []);
    };
  }

  /** Throws when a schema of a plugin not trusted breaks JSON Schema 2020-12. */
  private check(plugin: string, part: string, schema: object): void {
    if (this.trusted.has(plugin)) return;
    const checker = (this.checker ??= new Ajv2020({ allErrors: true, strict: false }));
    if (!checker.validateSchema(schema))
      throw new Error(`${plugin} ${part} schema is invalid: ${checker.errorsText(checker.errors)}`);
  }
}
