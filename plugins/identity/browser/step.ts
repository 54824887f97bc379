import type { StepFactory } from '../../../kernel/types.js';
import { assertNotForged } from './csrf.js';

/** The browser routes that set or end the session cookies (their own CSRF defence: login CSRF included). */
const BROWSER_CHANGES = new Set(['browserLogin', 'browserRefresh', 'browserLogout']);

/**
 * The CSRF check of the browser's sign-in routes, which are public (no credential chain runs for
 * them): before the password work, so a forged sign-in costs no hashing and counts no failure.
 */
export const browserCsrfStep: StepFactory = (route) => {
  if (route.plugin !== 'identity' || !BROWSER_CHANGES.has(route.decl.operation)) return null;
  return (call, next) => {
    assertNotForged(call);
    return next();
  };
};
