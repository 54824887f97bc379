import { randomBytes } from 'node:crypto';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ApiError } from '../../kernel/errors.js';
import type { ComponentType } from './contract.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/**
 * A component's config against its type's JSON Schema. Secrets are the top-level properties
 * marked `"x-secret": true`; one also marked `"x-generated": true` gets a random value when the
 * client sends none (a webhook's secret), shown once in the create response.
 */
export class ConfigSchemas {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    addFormats(this.ajv);
  }

  secretFields(type: ComponentType): string[] {
    const properties = (type.config_schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    return Object.entries(properties)
      .filter(([, schema]) => schema && schema['x-secret'] === true)
      .map(([name]) => name);
  }

  generatedSecrets(type: ComponentType): string[] {
    const properties = (type.config_schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    return this.secretFields(type).filter((name) => properties[name]?.['x-generated'] === true);
  }

  /** Fills generated secrets the client left out; returns what it made (to show once). */
  generate(type: ComponentType, config: Record<string, unknown>): Record<string, string> {
    const made: Record<string, string> = {};
    for (const name of this.generatedSecrets(type)) {
      if (config[name] === undefined) {
        made[name] = `whsec_${randomBytes(24).toString('base64url')}`;
        config[name] = made[name];
      }
    }
    return made;
  }

  /** Validates (and fills defaults into) `config`; 400 naming each field that does not fit. */
  check(type: ComponentType, config: Record<string, unknown>): void {
    let validate = this.compiled.get(type.name);
    if (!validate) {
      try {
        validate = this.ajv.compile(type.config_schema);
      } catch (err) {
        throw new ApiError(
          'internal_error',
          `The config schema of component type "${type.name}" does not compile: ${(err as Error).message}`,
        );
      }
      this.compiled.set(type.name, validate);
    }
    if (validate(config)) {
      const problems = type.validate?.(config) ?? [];
      if (problems.length === 0) return;
      const details = problems.map((p) => ({ in: 'body', pointer: `/config${p.pointer}`, message: p.message }));
      throw new ApiError(
        'validation_error',
        `The config does not fit type "${type.name}": ${details[0]?.pointer} ${details[0]?.message}.`,
        { details },
      );
    }
    const details = (validate.errors ?? []).slice(0, 20).map((e) => detail(e));
    const first = details[0];
    throw new ApiError(
      'validation_error',
      `The config does not fit type "${type.name}": ${first ? `${first.pointer} ${first.message}` : 'invalid'}.`,
      { details },
    );
  }
}

function detail(error: ErrorObject): { in: string; pointer: string; message: string } {
  let pointer = `/config${error.instancePath}`;
  if (error.keyword === 'required') pointer += `/${(error.params as { missingProperty: string }).missingProperty}`;
  if (error.keyword === 'additionalProperties')
    pointer += `/${(error.params as { additionalProperty: string }).additionalProperty}`;
  return { in: 'body', pointer, message: error.message ?? 'is invalid' };
}
