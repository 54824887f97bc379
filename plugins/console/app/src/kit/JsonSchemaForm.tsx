import { useState } from 'react';
import { Field } from './Field';

/** The part of JSON Schema the API's config schemas use. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
  /** A label the schema gives the field (a BPMN task form's field label); otherwise the name is shown. */
  title?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  format?: string;
  pattern?: string;
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  'x-secret'?: boolean;
}

interface Props {
  schema: JsonSchema;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  /** Pointer of this object in the request body (e.g. `/config`), so API errors land on the right field. */
  pointer: string;
  error?: unknown;
  /** Secret fields already set on the server: shown as set, never their value (secrets are write-only). */
  secretsSet?: string[];
}

function typeOf(schema: JsonSchema): string {
  const t = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  if (schema.enum) return 'enum';
  return t ?? 'json';
}

function humanize(name: string): string {
  const text = name.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A JSON value typed in a text area (objects and arrays the form has no widget for). */
function JsonInput({
  value,
  onChange,
  ...input
}: {
  value: unknown;
  onChange: (v: unknown) => void;
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string;
  required: boolean;
}) {
  const [text, setText] = useState(value === undefined ? '' : JSON.stringify(value, null, 2));
  const [bad, setBad] = useState(false);
  return (
    <>
      <textarea
        {...input}
        aria-invalid={input['aria-invalid'] || bad}
        rows={3}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim() === '') {
            setBad(false);
            onChange(undefined);
            return;
          }
          try {
            onChange(JSON.parse(e.target.value));
            setBad(false);
          } catch {
            setBad(true);
          }
        }}
      />
      {bad ? <span className="field-error">Not valid JSON yet.</span> : null}
    </>
  );
}

/**
 * A form generated from a JSON Schema (a component type's config_schema, a step's config):
 * one field per property, typed by the schema, secret (x-secret) fields write-only.
 */
export function JsonSchemaForm({ schema, value, onChange, pointer, error, secretsSet = [] }: Props) {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) return <p className="muted">This type takes no settings.</p>;
  const set = (name: string, v: unknown) => {
    const next = { ...value };
    if (v === undefined || v === '') delete next[name];
    else next[name] = v;
    onChange(next);
  };
  return (
    <div className="schema-form">
      {properties.map(([name, prop]) => {
        const kind = typeOf(prop);
        const secret = prop['x-secret'] === true;
        const required = schema.required?.includes(name) ?? false;
        const hintParts = [
          prop.description,
          prop.default !== undefined ? `Default: ${JSON.stringify(prop.default)}.` : null,
          secret
            ? secretsSet.includes(name)
              ? 'Secret, set: leave empty to keep it.'
              : 'Secret: write-only, never shown again.'
            : null,
        ];
        const hint = hintParts.filter(Boolean).join(' ');
        const current = value[name];
        return (
          <Field
            key={name}
            label={prop.title ?? humanize(name)}
            pointer={`${pointer}/${name}`}
            error={error}
            hint={hint}
            required={required && !(secret && secretsSet.includes(name))}
          >
            {(input) => {
              if (kind === 'enum')
                return (
                  <select
                    {...input}
                    value={current === undefined ? '' : JSON.stringify(current)}
                    onChange={(e) => set(name, e.target.value === '' ? undefined : JSON.parse(e.target.value))}
                  >
                    <option value="">
                      {prop.default !== undefined ? `(default ${JSON.stringify(prop.default)})` : '(choose)'}
                    </option>
                    {prop.enum?.map((option) => (
                      <option key={JSON.stringify(option)} value={JSON.stringify(option)}>
                        {String(option)}
                      </option>
                    ))}
                  </select>
                );
              if (kind === 'boolean')
                return (
                  <select
                    {...input}
                    value={current === undefined ? '' : String(current)}
                    onChange={(e) => set(name, e.target.value === '' ? undefined : e.target.value === 'true')}
                  >
                    <option value="">
                      {prop.default !== undefined ? `(default ${String(prop.default)})` : '(unset)'}
                    </option>
                    <option value="true">yes</option>
                    <option value="false">no</option>
                  </select>
                );
              if (kind === 'integer' || kind === 'number')
                return (
                  <input
                    {...input}
                    type="number"
                    inputMode="numeric"
                    min={prop.minimum}
                    max={prop.maximum}
                    step={kind === 'integer' ? 1 : 'any'}
                    value={current === undefined ? '' : String(current)}
                    onChange={(e) => set(name, e.target.value === '' ? undefined : Number(e.target.value))}
                  />
                );
              if (kind === 'string' && (prop.maxLength ?? 0) > 4000)
                return (
                  <textarea
                    {...input}
                    rows={6}
                    className="code"
                    spellCheck={false}
                    value={(current as string | undefined) ?? ''}
                    onChange={(e) => set(name, e.target.value)}
                  />
                );
              if (kind === 'string')
                return (
                  <input
                    {...input}
                    type={secret ? 'password' : 'text'}
                    autoComplete={secret ? 'new-password' : 'off'}
                    placeholder={secret && secretsSet.includes(name) ? '•••••• (set)' : undefined}
                    value={(current as string | undefined) ?? ''}
                    onChange={(e) => set(name, e.target.value)}
                  />
                );
              return <JsonInput {...input} value={current} onChange={(v) => set(name, v)} />;
            }}
          </Field>
        );
      })}
    </div>
  );
}
