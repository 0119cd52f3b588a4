/**
 * One HTTP exchange of the read path through the client's own request
 * handler (client.ts: the SDK's handler with one deadline over the whole
 * exchange, its agents and proxy settings): the signed POST out, the whole
 * answer back as text. The read path has no sockets of its own; they close
 * with the client's. docs/performance.md ("The read path's transport") has
 * the measurement that chose this over a transport of its own.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { HttpRequest } from '@smithy/core/protocols';
import type { HttpRequest as Request, HttpResponse, RequestHandler } from '@smithy/types';

/** Where a read goes: the endpoint URL's parts. */
export interface Target {
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
}

export interface Answer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** The answer's body as text; a body cut off (its socket destroyed, the deadline) fails as the SDK's handler names it: retried as transient. */
function bodyText(body: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    body.on('data', (chunk: Buffer) => chunks.push(chunk));
    body.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    body.once('error', reject);
    body.once('close', () => {
      if (!body.complete)
        reject(Object.assign(new Error('DynamoDB closed the connection before its answer was complete'), { name: 'TimeoutError', code: 'ECONNRESET' }));
    });
  });
}

export type SdkHandler = RequestHandler<Request, HttpResponse>;

export async function sdkExchange(handler: SdkHandler, target: Target, headers: Record<string, string>, body: string): Promise<Answer> {
  const { response } = await handler.handle(new HttpRequest({ ...target, method: 'POST', headers, body }));
  const text = await bodyText(response.body as IncomingMessage);
  return { statusCode: response.statusCode, headers: response.headers as IncomingHttpHeaders, text };
}
