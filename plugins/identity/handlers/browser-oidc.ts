import { randomBytes } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { auditEntry, operationHandlers } from '../../../kernel/plugin/api.js';
import { ApiError, isApiError } from '../../../kernel/errors.js';
import type { Call, Handler, Reply } from '../../../kernel/types.js';
import { invalidCredential } from '../authenticators/credentials.js';
import { clearedFlowCookie, FLOW_COOKIE, flowCookie, readCookie, sessionCookies } from '../browser/cookies.js';
import { authorizationUrl, type IdTokenClaims, redeemCode } from '../browser/oidc.js';
import type { IdentityDeps } from '../deps.js';
import type { Operations } from '../generated/manifest-types.js';
import { IssuerCache } from '../oidc/issuers.js';
import { insertFlow, takeFlow } from '../store/browser-flows.js';
import { browserProviders, getProvider, type ProviderRow } from '../store/providers.js';
import { createSession } from '../store/sessions.js';
import { addSeconds } from '../time.js';
import { hashSecret } from '../tokens/format.js';
import { pageOf } from './common.js';

/** How long a browser has to come back from the provider. */
const FLOW_SECONDS = 600;
const CALLBACK_PATH = '/auth/browser/oidc/callback';
const DEFAULT_RETURN = '/console/';

/**
 * A path of this service to send the browser back to, or undefined: never another origin
 * (`//host`, `/\\host`, a scheme), so the sign-in is no open redirect.
 */
export function sameOriginPath(value: string): string | undefined {
  if (value.length === 0 || value.length > 2048 || !value.startsWith('/')) return undefined;
  if (value.startsWith('//') || value.startsWith('/\\') || /[\u0000-\u001f\u007f\\]/.test(value)) return undefined;
  const base = 'http://service.invalid';
  const url = new URL(value, base);
  return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : undefined;
}

function roleNames(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

function usable(provider: ProviderRow | undefined): provider is ProviderRow & { browser_client_id: string } {
  return Boolean(provider?.enabled && provider.browser_client_id);
}

function flowHash(id: string): string {
  return hashSecret(id);
}

/** `return_to` with the refusal's code added, for the console to show on its sign-in page. */
function withError(returnTo: string, code: string): string {
  const url = new URL(returnTo, 'http://service.invalid');
  url.searchParams.set('sign_in_error', code);
  return `${url.pathname}${url.search}${url.hash}`;
}

function redirect(location: string, cookies: string[]): Reply {
  return {
    status: 302,
    body: `Found: ${location}\n`,
    headers: { Location: location, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    cookies,
  };
}

/**
 * Single sign-on in a browser: the OpenID Connect authorization-code flow with PKCE against a
 * tenant's identity provider that names a browser client. The subject is mapped as the
 * provider's JWTs are (authenticators/oidc.ts): `<provider>:<subject>`, the provider's tenant,
 * its default roles plus the claimed roles it allows, never account-wide scope. The session is an
 * ordinary one (cookies, refresh, revocation), holding the mapped roles until it ends.
 */
export function browserOidcHandlers(deps: IdentityDeps): Record<string, Handler> {
  const { audit } = deps;
  const issuers = new IssuerCache();
  const { clock, settings } = deps;

  async function record(call: Call, reply: Reply): Promise<void> {
    if (audit.enabled) await audit.write(call.db, auditEntry(call, { reply }, clock.now()));
  }

  async function mapSubject(
    call: Call,
    provider: ProviderRow,
    claims: IdTokenClaims,
  ): Promise<{ subjectId: string; roles: string[]; email: string | null }> {
    const subject = claims[provider.subject_claim];
    if (typeof subject !== 'string' || subject.length === 0 || subject.length > 255)
      throw invalidCredential(`The ID token has no ${provider.subject_claim} claim.`);
    const claimedTenant = provider.tenant_claim ? claims[provider.tenant_claim] : undefined;
    if (claimedTenant !== undefined && claimedTenant !== provider.tenant_id)
      throw invalidCredential('The ID token is not for a tenant this provider serves.');
    const claimed = roleNames(claims[provider.roles_claim]).filter((name) => provider.allowed_roles.includes(name));
    const requested = [...new Set([...provider.default_roles, ...claimed])];
    const { roles } = await deps.roles.resolve(call.db, provider.tenant_id, requested);
    const email = typeof claims.email === 'string' && claims.email.length <= 320 ? claims.email : null;
    return { subjectId: `${provider.id}:${subject}`, roles: roles.map((r) => r.id), email };
  }

  return operationHandlers<Operations>({
    async listBrowserProviders(call) {
      const page = pageOf(call);
      const rows = await browserProviders(call.db, call.query.tenant_id, page.afterId, page.fetch);
      return { status: 200, body: { items: rows.map((r) => ({ id: r.id, name: r.display_name ?? r.id })) } };
    },

    async startBrowserOidc(call) {
      const { query } = call;
      const returnTo = sameOriginPath(query.return_to ?? DEFAULT_RETURN);
      if (returnTo === undefined)
        throw new ApiError('validation_error', 'return_to must be a path of this service (starting with one /).', {
          details: [{ in: 'query', pointer: '/return_to', message: 'not a path of this service' }],
        });
      const provider = await getProvider(call.db, query.tenant_id, query.provider);
      if (!usable(provider))
        throw new ApiError('not_found', `No identity provider "${query.provider}" for browser sign-in in this tenant.`);
      if (!call.origin) throw new ApiError('bad_request', 'A browser sign-in starts over HTTP.');
      const now = clock.now();
      const id = randomBytes(32).toString('base64url');
      const flow = {
        state: oauth.generateRandomState(),
        nonce: oauth.generateRandomNonce(),
        codeVerifier: oauth.generateRandomCodeVerifier(),
        redirectUri: `${call.origin}${CALLBACK_PATH}`,
      };
      const location = await authorizationUrl(issuers, provider, flow);
      await insertFlow(
        call.db,
        flowHash(id),
        {
          tenant_id: provider.tenant_id,
          provider_id: provider.id,
          state: flow.state,
          nonce: flow.nonce,
          code_verifier: flow.codeVerifier,
          redirect_uri: flow.redirectUri,
          return_to: returnTo,
          expires_at: addSeconds(now, FLOW_SECONDS),
        },
        now,
      );
      return redirect(location, [flowCookie(call, id, FLOW_SECONDS)]);
    },

    async finishBrowserOidc(call) {
      const id = readCookie(call.headers.cookie, FLOW_COOKIE);
      const now = clock.now();
      const flow = id ? await takeFlow(call.db, flowHash(id)) : undefined;
      if (!flow || new Date(flow.expires_at) <= now) {
        const error = invalidCredential(
          'No sign-in was started in this browser, or it took longer than ten minutes: start again.',
        );
        const reply: Reply = { status: error.status, body: error.toBody(), cookies: [clearedFlowCookie(call)] };
        await record(call, reply);
        return reply;
      }
      call.tenantId = flow.tenant_id;
      try {
        const provider = await getProvider(call.db, flow.tenant_id, flow.provider_id);
        if (!usable(provider)) throw invalidCredential('The identity provider is no longer available for sign-in.');
        const callback = new URL(flow.redirect_uri);
        for (const [name, value] of Object.entries(call.query))
          if (typeof value === 'string') callback.searchParams.set(name, value);
        const claims = await redeemCode(issuers, provider, callback, {
          state: flow.state,
          nonce: flow.nonce,
          codeVerifier: flow.code_verifier,
          redirectUri: flow.redirect_uri,
        });
        const subject = await mapSubject(call, provider, claims);
        const tokens = await createSession(
          call.db,
          {
            tenantId: provider.tenant_id,
            subjectId: subject.subjectId,
            userAgent: call.headers['user-agent']?.slice(0, 256) ?? null,
            provider: { id: provider.id, roles: subject.roles, email: subject.email },
          },
          settings,
          now,
        );
        call.resourceId = tokens.session_id;
        call.principal = {
          subjectId: subject.subjectId,
          tenantId: provider.tenant_id,
          credential: { kind: 'session', id: tokens.session_id },
          roles: subject.roles,
          permissions: new Set(),
        };
        call.notes.auditDetail = { provider: provider.id, roles: subject.roles };
        await record(call, { status: 200, body: {} });
        return redirect(flow.return_to, [...sessionCookies(call, tokens, now), clearedFlowCookie(call)]);
      } catch (err) {
        if (!isApiError(err) || err.status >= 500) throw err;
        call.notes.auditDetail = { provider: flow.provider_id };
        await record(call, { status: err.status, body: err.toBody() });
        return redirect(withError(flow.return_to, err.code), [clearedFlowCookie(call)]);
      }
    },
  });
}
