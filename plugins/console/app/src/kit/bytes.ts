/** Hex dump of bytes, 16 per line, with the printable ASCII beside (the "raw bytes" view). */
export function hexDump(bytes: Uint8Array, max = 4096): string {
  const lines: string[] = [];
  const end = Math.min(bytes.length, max);
  for (let at = 0; at < end; at += 16) {
    const row = bytes.subarray(at, Math.min(at + 16, end));
    const hex = Array.from(row, (b) => b.toString(16).padStart(2, '0')).join(' ');
    const text = Array.from(row, (b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${at.toString(16).padStart(6, '0')}  ${hex.padEnd(47)}  ${text}`);
  }
  if (bytes.length > max) lines.push(`… ${bytes.length - max} more bytes`);
  return lines.join('\n');
}

export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Short one-line preview of a decoded value for a list row. */
export function preview(value: unknown, max = 160): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? '' : text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A one-line hex preview of a body. */
export function hexPreview(bytes: Uint8Array, max = 24): string {
  const hex = Array.from(bytes.subarray(0, max), (b) => b.toString(16).padStart(2, '0')).join(' ');
  return bytes.length > max ? `${hex} …` : hex;
}
