import { readFileSync } from 'node:fs';
import { fromRoot } from '../paths.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { LoadedManifest, Manifest } from './types.js';

const SCHEMA_FILE = fromRoot('manifests', 'manifest.schema.json');

/** Raised when a manifest cannot be read or breaks the manifest schema; names file and pointer. */
export class ManifestError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ManifestError';
  }
}

let validateManifest: ReturnType<Ajv2020['compile']> | undefined;

function manifestValidator(): ReturnType<Ajv2020['compile']> {
  if (!validateManifest) {
    const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as object;
    // The repository's own schema, checked against JSON Schema by a test rather than at every
    // start: compiling the meta-schema first cost 100 ms of each boot.
    validateManifest = new Ajv2020({ allErrors: true, strict: false, validateSchema: false }).compile(schema);
  }
  return validateManifest;
}

/** Checks one manifest object against manifests/manifest.schema.json. */
export function checkManifest(data: unknown, file: string): LoadedManifest {
  const validate = manifestValidator();
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map(
      (e) =>
        `${file}: ${e.instancePath || '/'} ${e.message ?? 'is invalid'}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
    );
    throw new ManifestError(problems);
  }
  return { manifest: data as Manifest, file };
}

/** Reads a manifest file (JSON) and validates it. */
export function loadManifestFile(file: string): LoadedManifest {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ManifestError([`${file}: cannot be read as JSON: ${(err as Error).message}`]);
  }
  return checkManifest(data, file);
}
