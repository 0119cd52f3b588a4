/**
 * The work a model asks of the stream processor, and the marker through
 * which a gateway tells the stream which model it serves (rolling deploys).
 *
 * - work: one line per thing the processor does for the model: each copy
 *   it carries to edges (`Type.field>attribute on Owner.connection`), each
 *   counter it keeps, each cascade it finishes. A processor can do a
 *   model's work when every line is one of its own.
 * - marker: at start-up a gateway writes an item (`STREAM#MODEL`,
 *   `VERSION#<hash of its work>`) holding its work, so it is a record on
 *   the stream before any write the gateway serves. A processor that meets
 *   a marker with work it lacks (a gateway of a newer model, say one that
 *   added a copy) stops there, leaving that record and those after it for
 *   a processor that knows the model (handler.ts: `ModelBehind`; the
 *   reader holds the shard and reports it). A processor of a newer model
 *   does everything an older model asked, so it goes on.
 * The marker expires after a day, as stream records do.
 */
import { createHash } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { STREAM_PREFIX } from '../dynamo/keys.js';
import type { Plan } from '../plan/plan.js';
import type { Store } from '../writes/store.js';

export const MODEL_PARTITION = `${STREAM_PREFIX}MODEL`;

/** The processor's work under `plan`, sorted. */
export function workOf(plan: Plan): string[] {
  const work = new Set<string>();
  for (const { relation } of plan.relations.values()) {
    if (relation.kind === 'edges') for (const c of relation.copies) work.add(`copy ${relation.node}.${c.field}>${c.attribute} on ${relation.path}`);
    if (relation.counter !== null) work.add(`counter ${relation.owner}.${relation.counter} of ${relation.path}`);
    if (relation.kind === 'edges' || relation.owned) work.add(`cascade ${relation.path}`);
  }
  return [...work].sort();
}

export const modelVersion = (work: readonly string[]): string => createHash('sha256').update(work.join('\n')).digest('hex').slice(0, 16);

/** A processor whose plan lacks some of a served model's work: it leaves the record for one that knows the model. */
export class ModelBehind extends Error {
  override name = 'ModelBehind';
  constructor(
    readonly version: string,
    readonly missing: readonly string[],
  ) {
    super(`the table is served by a model (${version}) whose stream work this processor lacks: ${missing.join('; ')}`);
  }
}

/** Writes the marker of the model `store` serves. */
export async function writeModelMarker(store: Store, now = Date.now()): Promise<string> {
  const work = workOf(store.plan);
  const version = modelVersion(work);
  await store.doc.send(
    new PutCommand({
      TableName: store.tableName,
      Item: {
        ...store.plan.keys.key({ PK: MODEL_PARTITION, SK: `VERSION#${version}` }),
        work,
        version,
        startedAt: new Date(now).toISOString(),
        expiresAt: Math.floor(now / 1000) + 86_400,
      },
    }),
  );
  return version;
}
