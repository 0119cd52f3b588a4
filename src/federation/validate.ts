/**
 * checkSubgraph(): at start-up, a federated model's SDL (what `_service`
 * answers, sdl.ts) checked by Apollo's own subgraph rules (@apollo/subgraph,
 * loaded only for a federated model), so a model the router could not
 * compose (a @requires of a field that is not @external, a @key naming no
 * field) stops `npm start` with one line per problem rather than failing
 * composition later. The gateway's own checks (declaration/federation.ts)
 * ran before: what it cannot serve was refused already.
 */
import { parse } from 'graphql';
import type { Model } from '../declaration/model.js';
import { ModelError } from '../declaration/problems.js';
import { subgraphSdl } from './sdl.js';

/** Apollo names each problem on a line of its own, after the subgraph's name. */
const CAUSE = /^\[[^\]]*\] (.+)$/gm;

export async function checkSubgraph(model: Model): Promise<void> {
  if (!model.federation) return;
  const { buildSubgraphSchema } = await import('@apollo/subgraph');
  try {
    buildSubgraphSchema(parse(subgraphSdl(model)));
  } catch (error) {
    const message = String((error as Error).message);
    const causes = [...message.matchAll(CAUSE)].map((m) => m[1]!);
    const lines = causes.length > 0 ? causes : [message.split('\n')[0]!];
    throw new ModelError(
      model.source,
      lines.map((line) => ({ where: 'Federation', message: line, line: null })),
    );
  }
}
