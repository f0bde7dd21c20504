import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded exchange: what the server saw and what it answers. */
export interface JsonRequest {
  readonly method: string;
  /** Path with query string. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
}
export type JsonReply = { readonly status?: number; readonly json: unknown } | { readonly status: number; readonly text: string };

/**
 * An HTTP server on 127.0.0.1 that answers each request through `reply` (recorded responses of an
 * outside API, in its documented format) and keeps every request it saw.
 */
export async function startJsonServer(
  reply: (request: JsonRequest) => JsonReply,
): Promise<{ url: string; requests: JsonRequest[]; close(): Promise<void> }> {
  const requests: JsonRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? (JSON.parse(text) as unknown) : null;
      } catch {
        // not JSON: kept as text
      }
      const request = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body };
      requests.push(request);
      const answer = reply(request);
      if ('json' in answer) {
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.json));
      } else {
        res.writeHead(answer.status, { 'content-type': 'text/plain' });
        res.end(answer.text);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
