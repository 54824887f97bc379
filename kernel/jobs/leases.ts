import type { Knex } from 'knex';
import type { Leases } from './types.js';
import { acquireLease, fenceLease, fenceLeaseIn, leaseHolder, releaseLease, renewLease } from './lease-store.js';

/** The leases service of one instance: every lease it takes carries its holder name. */
export function createLeases(db: Knex, holder: string): Leases {
  return {
    holder,
    async acquire(name, key, ttlMs) {
      const result = await acquireLease(db, name, key, holder, ttlMs);
      return 'lease' in result ? result.lease : null;
    },
    renew: (lease, ttlMs) => renewLease(db, lease, ttlMs),
    release: (lease) => releaseLease(db, lease),
    fence: (trx, lease) => fenceLease(trx, lease),
    fenceIn: (write, lease) => fenceLeaseIn(write, lease),
    holderOf: (name, key = '') => leaseHolder(db, name, key),
  };
}
