import type { ComponentType, RuntimeMessage } from '../../components/contract.js';
import { withValue } from './script-input.js';

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    pick: {
      type: 'array',
      maxItems: 256,
      items: { type: 'string', maxLength: 200 },
      description: 'Keep only these fields.',
    },
    omit: {
      type: 'array',
      maxItems: 256,
      items: { type: 'string', maxLength: 200 },
      description: 'Drop these fields.',
    },
    rename: {
      type: 'object',
      maxProperties: 256,
      additionalProperties: { type: 'string', maxLength: 200 },
      description: 'Rename fields (from → to).',
    },
    set: {
      type: 'object',
      maxProperties: 256,
      additionalProperties: true,
      description: 'Set fields to constant values.',
    },
  },
} as const;

function valueOf(message: RuntimeMessage): unknown {
  if (message.value !== undefined) return message.value;
  if (message.body !== undefined) return JSON.parse(Buffer.from(message.body).toString('utf8')) as unknown;
  throw new Error('the message has no JSON value');
}

/**
 * `json.transform`: a declarative reshaping of a JSON object (pick, omit, rename, set), without
 * the sandbox — the cheap transform for plain field work.
 */
export const jsonTransformType: ComponentType = {
  name: 'json.transform',
  kind: 'processor',
  summary: 'Reshapes a JSON object: pick, omit, rename and set fields (in that order).',
  config_schema: SCHEMA,
  create(config) {
    const pick = config.pick as string[] | undefined;
    const omit = new Set((config.omit as string[] | undefined) ?? []);
    const rename = Object.entries((config.rename as Record<string, string> | undefined) ?? {});
    const set = (config.set as Record<string, unknown> | undefined) ?? {};
    return {
      async process(message) {
        const value = valueOf(message);
        if (typeof value !== 'object' || value === null || Array.isArray(value))
          throw new Error('json.transform needs a JSON object');
        let out: Record<string, unknown> = pick
          ? Object.fromEntries(pick.filter((k) => k in value).map((k) => [k, (value as Record<string, unknown>)[k]]))
          : { ...(value as Record<string, unknown>) };
        for (const k of omit) delete out[k];
        for (const [from, to] of rename) {
          if (from in out) {
            out[to] = out[from];
            delete out[from];
          }
        }
        out = { ...out, ...set };
        return [withValue(message, out)];
      },
    };
  },
};
