import { randomBytes } from 'node:crypto';
import type { Call, StepFactory } from '../../../kernel/types.js';
import type { IdentityDeps } from '../deps.js';
import type { Operations } from '../generated/manifest-types.js';
import { findUserByName } from '../store/users.js';
import { hashPassword, needsRehash, verifyPassword } from './scrypt.js';

/** What the login handler learns from the password check made before its transaction. */
export interface LoginVerdict {
  /** The user row's id and the hash that was checked, or null for an unknown user. */
  user: { tenantId: string; id: string; checkedHash: string } | null;
  passwordOk: boolean;
  /** A stronger hash of the same password when the stored one used weaker parameters. */
  upgradedHash: string | null;
}

const loginVerdicts = new WeakMap<Call, LoginVerdict>();
const preparedHashes = new WeakMap<Call, string>();

export function loginVerdict(call: Call): LoginVerdict | undefined {
  return loginVerdicts.get(call);
}

/** The scrypt hash of the body's new password, computed before the transaction opened. */
export function preparedPasswordHash(call: Call): string | undefined {
  return preparedHashes.get(call);
}

function text(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
}

/** The routes whose password this step works on. */
type PasswordOperation = 'login' | 'browserLogin' | 'createUser' | 'patchUser';

/**
 * The body of one of those routes as this step finds it. The step runs in the authorize slot,
 * before the validation step, so a field may still hold anything or be absent: each is unknown
 * until `text` checks it. The fields are those the manifest declares (from the generated types),
 * so reading one it does not declare fails to compile.
 */
type UncheckedBody<O extends PasswordOperation> = { readonly [K in keyof Operations[O]['body']]?: unknown };

function uncheckedBody<O extends PasswordOperation>(call: Call, _operation: O): UncheckedBody<O> {
  const body: unknown = call.body;
  return typeof body === 'object' && body !== null ? body : {};
}

/**
 * Password work (about 0.3 s of scrypt each) runs here, before the route's database transaction
 * opens: a transaction held across a hash would pin a pooled connection (and on the embedded
 * database, THE connection) for the whole computation. The handler then applies the outcome in
 * its transaction. Malformed bodies are left for the validation step to refuse.
 */
export function passwordWorkStep(deps: IdentityDeps): StepFactory {
  let dummy: Promise<string> | undefined;
  // Unknown users are checked against a real hash of the same cost, so timing reveals nothing.
  const dummyHash = (): Promise<string> =>
    (dummy ??= hashPassword(randomBytes(16).toString('hex'), deps.settings.scrypt));

  return (route) => {
    if (route.plugin !== 'identity') return null;
    const operation = route.decl.operation;
    if (operation === 'login' || operation === 'browserLogin') {
      return async (call, next) => {
        const body = uncheckedBody(call, operation);
        const tenantId = text(body.tenant_id, 64);
        const username = text(body.username, 128);
        const password = text(body.password, 1024);
        if (!tenantId || !username || !password) return next();
        const user = await findUserByName(call.db, tenantId, username);
        const stored = user?.password_hash ?? (await dummyHash());
        const passwordOk = await deps.hashes.run(() => verifyPassword(password, stored));
        const upgradedHash =
          user && passwordOk && needsRehash(stored, deps.settings.scrypt)
            ? await deps.hashes.run(() => hashPassword(password, deps.settings.scrypt))
            : null;
        loginVerdicts.set(call, {
          user: user ? { tenantId: user.tenant_id, id: user.id, checkedHash: stored } : null,
          passwordOk: Boolean(user) && passwordOk,
          upgradedHash,
        });
        return next();
      };
    }
    if (operation === 'createUser' || operation === 'patchUser') {
      return async (call, next) => {
        const password = text(uncheckedBody(call, operation).password, 1024);
        if (password && password.length >= 12)
          preparedHashes.set(call, await deps.hashes.run(() => hashPassword(password, deps.settings.scrypt)));
        return next();
      };
    }
    return null;
  };
}
