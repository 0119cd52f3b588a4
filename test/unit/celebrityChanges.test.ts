/**
 * The subscriptions of examples/celebrities.graphql (@changes): what each
 * declares, and the topics the table's stream records of that model
 * publish to, a follower edge in a write shard included.
 */
import { fileURLToPath } from 'node:url';
import { marshall } from '@aws-sdk/util-dynamodb';
import { buildASTSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/declaration/loadModel.js';
import { compilePlan } from '../../src/plan/plan.js';
import { declaredSubscriptions } from '../../src/subscriptions/declared.js';
import { eventsOf } from '../../src/subscriptions/events.js';
import { modelFromPlan } from '../../src/subscriptions/model.js';
import type { Item } from '../../src/dynamo/batchGet.js';
import { shardOf } from '../support/model.js';

const model = loadModel(fileURLToPath(new URL('../../examples/celebrities.graphql', import.meta.url)));
const changes = modelFromPlan(compilePlan(model));

const record = (eventName: 'INSERT' | 'MODIFY' | 'REMOVE', seq: string, item: Item, old?: Item) => ({
  eventName,
  dynamodb: {
    Keys: marshall({ PK: item.PK, SK: item.SK }),
    ...(eventName === 'REMOVE' ? {} : { NewImage: marshall(item) }),
    ...(old ? { OldImage: marshall(old) } : {}),
    SequenceNumber: seq,
  },
});
const topics = (item: Parameters<typeof record>) => eventsOf(record(...item), changes).map((e) => [e.topic, e.kind, e.childId ?? null]);

describe('the celebrities example’s subscriptions', () => {
  it('declares a celebrity’s own changes and the changes of its followers', () => {
    const declared = declaredSubscriptions(buildASTSchema(model.typeDefs), changes);
    expect(declared.map((d) => [d.field, d.kind, d.args, d.rootField])).toEqual([
      ['celebrityChanged', 'item', ['id'], 'celebrity'],
      ['celebrityFollowersChanged', 'collection', ['celebrityId'], 'celebrity'],
    ]);
  });

  it('publishes a follow written in a shard to the celebrity’s followers and the fan’s following, and a rename to the celebrity', () => {
    const edge = { PK: 'FAN#f1', SK: 'CELEB#ada', GSI1PK: `CELEB#ada#${shardOf('f1', 16)}`, GSI1SK: 'FAN#f1', followedAt: '2026-12-01T00:00:00.000Z' };
    expect(topics(['INSERT', '1', edge])).toEqual([
      ['Fan.following#f1', 'ADDED', 'ada'],
      ['Celebrity.followers#ada', 'ADDED', 'f1'],
    ]);
    expect(topics(['REMOVE', '2', edge])).toEqual([
      ['Fan.following#f1', 'REMOVED', 'ada'],
      ['Celebrity.followers#ada', 'REMOVED', 'f1'],
    ]);
    const ada = { PK: 'CELEB#ada', SK: 'PROFILE', name: 'Ada Lovelace', shards: 16 };
    expect(topics(['MODIFY', '3', { ...ada, name: 'Ada King' }, ada])).toEqual([['Celebrity#ada', 'UPDATED', null]]);
  });
});
