import type { Knex } from 'knex';
import type { Connected } from './nats-connection.js';
import { ageCut } from './nats-age-cut.js';
import { countCut } from './nats-count-cut.js';
import { NatsIndexStore, type RunRow } from './nats-index-store.js';
import { isNotFound, jetStreamName, subject } from './nats-subjects.js';
import { idAt } from './message-runs.js';

/**
 * Removes from the index, within `budget`, the messages of `runs` that `removes` picks (in the
 * order given): their offsets become null, and a run with none left goes. Returns their ids.
 */
async function removeFromRuns(
  db: Knex,
  tenantId: string,
  runs: readonly RunRow[],
  removes: (partition: number, offset: number) => boolean,
  budget: number,
): Promise<string[]> {
  const index = new NatsIndexStore(db);
  const removed: string[] = [];
  const emptied: string[] = [];
  for (const run of runs) {
    if (removed.length >= budget) break;
    const offsets = run.offsets.map((o) => (o === null ? null : Number(o)));
    let changed = false;
    offsets.forEach((offset, n) => {
      if (offset === null || removed.length >= budget || !removes(run.partitions[n] as number, offset)) return;
      offsets[n] = null;
      removed.push(idAt(run.first_id, n));
      changed = true;
    });
    if (!changed) continue;
    if (offsets.every((o) => o === null)) emptied.push(run.last_id);
    else await index.setRunOffsets(tenantId, run.last_id, offsets);
  }
  if (emptied.length > 0) await index.deleteRuns(tenantId, emptied);
  await index.forgetMessages(tenantId, removed);
  return removed;
}

async function purgeBelow(
  nats: () => Promise<Connected>,
  db: Knex,
  stream: { tenantId: string; uid: string },
  partition: number,
  keepFrom: number,
  batch: number,
): Promise<number> {
  const { jsm } = await nats();
  try {
    await jsm.streams.purge(jetStreamName(stream), { filter: subject(stream, partition), seq: keepFrom });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const runs = await new NatsIndexStore(db).runsBelow(stream, partition, keepFrom, batch);
  const removed = await removeFromRuns(
    db,
    stream.tenantId,
    runs,
    (p, offset) => p === partition && offset < keepFrom,
    batch,
  );
  return removed.length;
}

/**
 * One retention pass, at most `batch` messages: deleted streams first (their JetStream stream,
 * then their index), then each limited stream's partitions purged below their cut by count and
 * age. It runs as the same kernel job as on postgres, so it follows the kernel's clock.
 */
export async function enforceRetention(
  nats: () => Promise<Connected>,
  db: Knex,
  batch: number,
  now: Date,
): Promise<number> {
  let removed = 0;
  const { jsm } = await nats();
  const index = new NatsIndexStore(db);
  for (const { tenant_id: tenantId, stream_uid: uid } of await index.discarded()) {
    try {
      await jsm.streams.delete(jetStreamName({ tenantId, uid }));
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    const runs = await index.runsOf(tenantId, uid, batch - removed);
    removed += (await removeFromRuns(db, tenantId, runs, () => true, batch - removed)).length;
    if (removed >= batch) return removed;
    await index.forgetStream(tenantId, uid);
  }
  for (const s of await index.limitedStreams()) {
    for (let partition = 0; partition < s.partitions && removed < batch; partition++) {
      let keepFrom = 0;
      if (s.max_messages !== null) {
        const nth = await countCut(db, { tenantId: s.tenant_id, uid: s.uid }, partition, Number(s.max_messages));
        if (nth !== undefined) keepFrom = Math.max(keepFrom, nth);
      }
      if (s.max_age_hours !== null) {
        const cut = await ageCut(
          db,
          { tenantId: s.tenant_id, uid: s.uid },
          partition,
          new Date(now.getTime() - s.max_age_hours * 3_600_000),
        );
        if (cut !== undefined) keepFrom = Math.max(keepFrom, cut);
      }
      if (keepFrom > 0)
        removed += await purgeBelow(
          nats,
          db,
          { tenantId: s.tenant_id, uid: s.uid },
          partition,
          keepFrom,
          batch - removed,
        );
    }
  }
  return removed;
}
