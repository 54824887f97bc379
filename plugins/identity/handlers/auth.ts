import { ApiError } from '../../../kernel/errors.js';
import { operationHandlers } from '../../../kernel/plugin/api.js';
import type { Handler } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import type { Operations } from '../generated/manifest-types.js';
import { listActiveSessions, revokeSession, revokeSubjectSessions } from '../store/sessions.js';
import { pageOf, type SignedInCall } from './common.js';
import { sessionFlows } from './sign-in.js';

function sessionOf(call: SignedInCall): { tenantId: string; sessionId: string; subjectId: string } {
  const { principal } = call;
  if (principal.credential.kind !== 'session')
    throw new ApiError(
      'bad_request',
      'This call needs a session credential (Bearer sess_…); other credentials have no session to end.',
    );
  return { tenantId: principal.tenantId, sessionId: principal.credential.id, subjectId: principal.subjectId };
}

export function authHandlers(deps: IdentityDeps): Record<string, Handler> {
  const { clock } = deps;

  const { signIn, refreshWith } = sessionFlows(deps);

  return operationHandlers<Operations>({
    async login(call) {
      const outcome = await signIn(call);
      if ('refused' in outcome) return outcome.refused;
      return { status: 200, body: outcome.tokens, headers: { 'Cache-Control': 'no-store' } };
    },

    async refreshSession(call) {
      const outcome = await refreshWith(call, call.body.refresh_token);
      if ('refused' in outcome) return outcome.refused;
      return { status: 200, body: outcome.tokens, headers: { 'Cache-Control': 'no-store' } };
    },

    async logout(call) {
      const { tenantId, sessionId } = sessionOf(call);
      call.tenantId = tenantId;
      call.resourceId = sessionId;
      await revokeSession(call.db, tenantId, sessionId, 'logout', clock.now());
      return { status: 204 };
    },

    async logoutAll(call) {
      const { tenantId, subjectId } = sessionOf(call);
      call.tenantId = tenantId;
      call.resourceId = subjectId;
      const revoked = await revokeSubjectSessions(call.db, tenantId, subjectId, 'logout_all', clock.now());
      call.notes.auditDetail = { sessions_revoked: revoked };
      return { status: 204 };
    },

    async listSessions(call) {
      const { principal } = call;
      const page = pageOf(call);
      const current = principal.credential.kind === 'session' ? principal.credential.id : undefined;
      const items = await listActiveSessions(
        call.db,
        principal.tenantId,
        principal.subjectId,
        clock.now(),
        { fetch: page.fetch, ...(page.afterId !== undefined ? { afterId: page.afterId } : {}) },
        current,
      );
      return { status: 200, body: { items } };
    },
  });
}
