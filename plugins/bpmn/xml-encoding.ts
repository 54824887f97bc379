import { ApiError } from '../../kernel/errors.js';
import { TextDecoder } from 'node:util';

/**
 * Deployed bytes as text, in the encoding the XML says it is in (a byte-order mark, else the
 * prolog's `encoding`, else UTF-8, as XML 1.0 §4.3.3 has it). The text is stored and served as
 * UTF-8, so the prolog is rewritten to say so; nothing else of the document changes.
 */
export function decodeXml(bytes: Buffer): string {
  let label = 'utf-8';
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) label = 'utf-16le';
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) label = 'utf-16be';
  else {
    // The prolog is ASCII in every encoding a BPMN tool writes; latin1 reads it byte for byte.
    const prolog = /^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(
      bytes.subarray(0, 300).toString('latin1'),
    );
    if (prolog) label = prolog[1]!.toLowerCase();
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    throw refuse(`The XML declares encoding "${label}", which this runtime cannot decode.`);
  }
  let text: string;
  try {
    text = decoder.decode(bytes.subarray(start));
  } catch {
    throw refuse(`The XML is not valid ${label.toUpperCase()} text.`);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text.replace(/^(\s*<\?xml[^>]*?encoding\s*=\s*)(["'])[^"']*\2/, '$1"UTF-8"');
}

function refuse(message: string): ApiError {
  return new ApiError('validation_error', message, { details: [{ in: 'body', pointer: '', message }] });
}
