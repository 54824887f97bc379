/**
 * Values leave the guest only as JSON text, parsed here by the host's own `JSON.parse`: nothing
 * the script built (getters, prototypes, functions) can exist on this side. A `__proto__` key is
 * dropped, so a value merged into a host object with `Object.assign` cannot change its prototype.
 */
export function fromGuestJson(json: string): unknown {
  return json.includes('"__proto__"') ? JSON.parse(json, dropProto) : JSON.parse(json);
}

function dropProto(key: string, value: unknown): unknown {
  return key === '__proto__' ? undefined : value;
}
