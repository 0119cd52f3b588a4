/**
 * A GraphQL POST sent from a given loopback address (127.0.0.x), so that
 * tests can be several callers keyed by address.
 */
import { request } from 'node:http';

export interface AddressedAnswer {
  status: number;
  retryAfter: string | undefined;
  json: any;
}

export function postFrom(url: string, from: string, query: string): Promise<AddressedAnswer> {
  const body = JSON.stringify({ query });
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, json: JSON.parse(text) }));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}
