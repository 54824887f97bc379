import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/** An authorization-code flow between its start and its callback (see migration 003). */
export interface BrowserFlow {
  tenant_id: string;
  provider_id: string;
  state: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
  return_to: string;
  expires_at: Date | string;
}

export async function insertFlow(db: Db, idHash: string, flow: BrowserFlow, now: Date): Promise<void> {
  // Flows nobody finished are dropped as new ones start: the table stays as small as the traffic.
  await db('identity_browser_flows').where('expires_at', '<=', now).delete();
  await db('identity_browser_flows').insert({ ...flow, id_hash: idHash });
}

/** Takes the flow out (one use): a second callback with the same cookie finds nothing. */
export async function takeFlow(db: Db, idHash: string): Promise<BrowserFlow | undefined> {
  const [row] = (await db('identity_browser_flows')
    .where({ id_hash: idHash })
    .delete()
    .returning('*')) as BrowserFlow[];
  return row;
}
