import { ApiError } from '../../kernel/errors.js';
import { operationHandlers } from '../../kernel/plugin/api.js';
import type { Call, Handler, Reply } from '../../kernel/types.js';
import { type BuiltFiles, preferredEncoding, safeRelative, type ServedFile } from './files.js';
import type { Operations } from './generated/manifest-types.js';
import { securityHeaders } from './headers.js';

/** Where the app is mounted; its build uses this as its base URL. */
export const MOUNT = '/console/';

/** Hashed build output: its name changes with its content, so a copy never goes stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html above all): kept, but checked with the server before each use. */
const REVALIDATE = 'no-cache';

const BUILD_HINT =
  'The console is not built: run `npm run console:build` (or `npm start`, which builds it when stale), then reload.';

/** Whether the caller is a browser navigating (it asks for HTML), not a script asking for JSON. */
function wantsHtml(call: Call): boolean {
  return /\btext\/html\b/i.test(call.headers.accept ?? '');
}

/** The answer while there is no build: a page for a browser, the usual error for anything else. */
function notBuilt(call: Call): Reply {
  // Returned, not thrown: a 5xx error's message never reaches the client, and this one must.
  if (!wantsHtml(call))
    return { status: 501, body: { error: { code: 'not_configured', message: BUILD_HINT, status: 501 } } };
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head>
<body><main><h1>The console is not built</h1>
<p>Build it with <code>npm run console:build</code> (or start the service with <code>npm start</code>, which builds it when it is missing or stale), then reload this page.</p>
<p>The API itself is running: see <a href="/openapi.json">/openapi.json</a> and <a href="/health">/health</a>.</p>
</main></body></html>
`;
  return {
    status: 501,
    body: Buffer.from(page),
    headers: {
      ...securityHeaders(call.origin),
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
    },
  };
}

function send(call: Call, file: ServedFile, cacheControl: string): Reply {
  const headers: Record<string, string> = {
    ...securityHeaders(call.origin),
    'Content-Type': file.type,
    'Cache-Control': cacheControl,
    ETag: file.etag,
  };
  const compressed = file.bodies.br !== undefined;
  if (compressed) headers.Vary = 'Accept-Encoding';
  if (call.headers['if-none-match'] === file.etag) return { status: 304, headers, body: undefined };
  const wanted = preferredEncoding(call.headers['accept-encoding']);
  const body = file.bodies[wanted];
  if (body && wanted !== 'identity') {
    headers['Content-Encoding'] = wanted;
    return { status: 200, headers, body };
  }
  return { status: 200, headers, body: file.bodies.identity };
}

export function consoleHandlers(files: BuiltFiles): Record<string, Handler> {
  const index = async (call: Call): Promise<Reply> => {
    const file = await files.get('index.html');
    return file ? send(call, file, REVALIDATE) : notBuilt(call);
  };
  return operationHandlers<Operations>({
    // A browser opening the service's address lands in the console; any other client gets the
    // answer it always got (no resource at /).
    getServiceRoot(call) {
      if (!wantsHtml(call)) throw new ApiError('not_found', 'No route GET /.');
      return {
        status: 302,
        body: `Found: ${MOUNT}\n`,
        headers: { Location: MOUNT, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
      };
    },
    getConsole: index,
    async getConsoleFile(call) {
      const relative = safeRelative(call.params.path);
      if (relative === undefined) throw new ApiError('not_found', 'No such file in the console.');
      const last = relative.slice(relative.lastIndexOf('/') + 1);
      // A path without an extension is one of the app's own routes: the app draws it.
      if (!last.includes('.')) return index(call);
      const file = await files.get(relative);
      if (!file) {
        if (!(await files.get('index.html'))) return notBuilt(call);
        throw new ApiError('not_found', 'No such file in the console.');
      }
      return send(call, file, relative.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
    },
  });
}
