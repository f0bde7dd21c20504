import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * GoPlus address security and Chainalysis sanctions screening on 127.0.0.1, answering with recorded
 * responses we wrote in their documented formats (test/fixtures/providers). Each API answers its
 * default reply, or a reply set for one address; `hold` keeps requests waiting until released, so a
 * test can make a provider slow without sleeping.
 */
export type RecordedApi = 'goplus' | 'chainalysis';

export type Reply = { readonly fixture: string; readonly status?: number } | { readonly status: number; readonly text: string };

export interface RecordedRequest {
  readonly api: RecordedApi;
  readonly address: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

export interface RecordedProviders {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Sets the reply for one address (any case), or the API's default without one. */
  answer(api: RecordedApi, reply: Reply, address?: string): void;
  /** Requests to the API wait until `release()`; released requests get their reply then. */
  hold(api: RecordedApi): { release(): void };
  close(): Promise<void>;
}

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'providers');
export const fixture = (path: string): unknown => JSON.parse(readFileSync(join(FIXTURES, path), 'utf8'));

const ROUTES: readonly { api: RecordedApi; pattern: RegExp }[] = [
  { api: 'goplus', pattern: /^\/api\/v1\/address_security\/([^/?]+)/ },
  { api: 'chainalysis', pattern: /^\/api\/v1\/address\/([^/?]+)/ },
];

export async function startRecordedProviders(): Promise<RecordedProviders> {
  const defaults = new Map<RecordedApi, Reply>([
    ['goplus', { fixture: 'goplus/address-security.clean.json' }],
    ['chainalysis', { fixture: 'chainalysis/address.clear.json' }],
  ]);
  const perAddress = new Map<string, Reply>();
  const held = new Map<RecordedApi, (() => void)[]>();
  const requests: RecordedRequest[] = [];

  const send = (response: ServerResponse, reply: Reply) => {
    if ('fixture' in reply) {
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      response.end(readFileSync(join(FIXTURES, reply.fixture)));
    } else {
      response.writeHead(reply.status, { 'content-type': 'text/plain' });
      response.end(reply.text);
    }
  };

  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    const route = ROUTES.map((r) => ({ api: r.api, match: r.pattern.exec(url) })).find((r) => r.match);
    if (!route?.match) return send(response, { status: 404, text: 'not found' });
    const address = decodeURIComponent(route.match[1]!).toLowerCase();
    requests.push({ api: route.api, address, url, headers: request.headers });
    const answer = () => send(response, perAddress.get(`${route.api}|${address}`) ?? defaults.get(route.api)!);
    const waiting = held.get(route.api);
    if (waiting) waiting.push(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const release = (api: RecordedApi) => {
    const waiting = held.get(api) ?? [];
    held.delete(api);
    waiting.forEach((answer) => answer());
  };

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer(api, reply, address) {
      if (address === undefined) defaults.set(api, reply);
      else perAddress.set(`${api}|${address.toLowerCase()}`, reply);
    },
    hold(api) {
      if (!held.has(api)) held.set(api, []);
      return { release: () => release(api) };
    },
    async close() {
      release('goplus');
      release('chainalysis');
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
