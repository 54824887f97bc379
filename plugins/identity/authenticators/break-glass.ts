import { ApiError, toApiError } from '../../../kernel/errors.js';
import { auditEntry } from '../../../kernel/plugin/api.js';
import type { Authenticator, Principal, StepFactory } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import { ACCOUNT_ADMIN_ROLE } from '../roles.js';
import { hashSecret, sameHash } from '../tokens/format.js';
import { authorizationCredential, invalidCredential } from './credentials.js';

const MAX_REASON = 500;

/**
 * Emergency access: `Authorization: BreakGlass <key>` plus `X-Break-Glass-Reason`. Off unless
 * settings.identity.break_glass.key_hash is set (only the key's SHA-256 is configured; the key
 * itself is a long random value, so a fast hash is safe). Every use is audited at critical
 * severity: mutating calls through the kernel's audit step, reads by `breakGlassReadAudit`.
 */
export function breakGlassAuthenticator(
  deps: IdentityDeps,
  configured: { keyHash: string; tenantId: string },
): Authenticator {
  const everything = (): ReadonlySet<string> => new Set(deps.catalog.permissions.keys());
  return {
    name: 'break_glass',
    securitySchemes: {
      breakGlass: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'BreakGlass <key>, with an X-Break-Glass-Reason header; emergency use only, always audited.',
      },
    },
    async authenticate(call) {
      const key = authorizationCredential(call.headers.authorization, 'BreakGlass');
      if (!key) return null;
      const reason = call.headers['x-break-glass-reason']?.trim();
      if (!reason)
        throw new ApiError('bad_request', 'Break-glass access needs an X-Break-Glass-Reason header saying why.');
      if (!sameHash(hashSecret(key), configured.keyHash)) {
        deps.logger.warn(
          { requestId: call.requestId, operation: call.route.decl.operation },
          'refused break-glass key',
        );
        throw invalidCredential('The break-glass key is not valid.');
      }
      const principal: Principal = {
        subjectId: 'break-glass',
        tenantId: call.headers['x-service-tenant']?.trim() || configured.tenantId,
        credential: { kind: 'break_glass', id: 'break-glass' },
        roles: [ACCOUNT_ADMIN_ROLE],
        permissions: everything(),
      };
      const detail = { break_glass: true, reason: reason.slice(0, MAX_REASON) };
      call.notes.severity = 'critical';
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), ...detail };
      deps.logger.warn(
        { requestId: call.requestId, operation: call.route.decl.operation, reason: detail.reason },
        'break-glass access',
      );
      return principal;
    },
  };
}

/**
 * The kernel audits mutating calls only; a read made with the break-glass key must be on the
 * record too. This step runs right after authentication on read routes and writes the audit
 * record once the reply (or the error) is known.
 */
export function breakGlassReadAudit(deps: IdentityDeps): StepFactory {
  return (route) => {
    if (route.mutating || route.decl.permission === 'public') return null;
    return async (call, next) => {
      if (call.principal?.credential.kind !== 'break_glass') return next();
      const sink = deps.audit;
      if (!sink.enabled) return next();
      try {
        const reply = await next();
        await sink.write(call.db, auditEntry(call, { reply }, deps.clock.now()));
        return reply;
      } catch (err) {
        const error = toApiError(err);
        await sink
          .write(call.db, auditEntry(call, { error }, deps.clock.now()))
          .catch((writeErr: unknown) => deps.logger.error({ err: writeErr }, 'break-glass audit record failed'));
        throw err;
      }
    };
  };
}
