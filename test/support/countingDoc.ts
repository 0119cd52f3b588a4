import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * A document client that counts what it sends by command (`Scan`, `Query`,
 * `BatchGet`…): for tools that take a client rather than run as a gateway
 * operation (the table check, migrate), whose requests the gateway's
 * per-operation metrics do not see.
 */
export function countingDoc(doc: DynamoDBDocumentClient): { doc: DynamoDBDocumentClient; sent: Record<string, number>; reset: () => void } {
  const sent: Record<string, number> = {};
  const counted = new Proxy(doc, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver);
      return (command: { constructor: { name: string } }) => {
        const op = command.constructor.name.replace(/Command$/, '');
        sent[op] = (sent[op] ?? 0) + 1;
        return target.send(command as never);
      };
    },
  });
  return { doc: counted, sent, reset: () => Object.keys(sent).forEach((k) => delete sent[k]) };
}
