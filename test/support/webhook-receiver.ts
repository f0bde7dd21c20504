import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { vocabularyViolations } from '../../read-api/schemas/vocabulary-contract.js';

/**
 * A real webhook receiver on 127.0.0.1 for tests: answers each request as `respond` says (a status, a
 * status and body, or 'hang' to never answer) and records what arrived. `waitFor(n)` resolves once n
 * requests have arrived, and fails after a bounded time instead of hanging the suite. Every payload is held
 * to the verdict vocabulary (read-api/schemas/vocabulary-contract.ts): `close()` fails naming any word
 * outside it, so every suite that receives webhooks checks the words they carry.
 */
export interface ReceivedWebhook {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly json: {
    schema_version: number;
    event_type: string;
    delivery_id: string;
    attempt: number;
    occurred_at: string;
    payload: Record<string, unknown>;
  };
  /** performance.now() at arrival (latency measurements). */
  readonly receivedAt: number;
  /** Date.now() at arrival (comparisons with recorded times). */
  readonly receivedAtMs: number;
}

export type Answer = number | 'hang' | { status: number; body?: string; headers?: Record<string, string> };

export interface Receiver {
  readonly url: string;
  readonly received: ReceivedWebhook[];
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  /**
   * Resolves once what has arrived satisfies `done`, re-checked at each arrival: no timer of its own, so a
   * test that must wait out a Kafka rebalance waits on the webhook itself, bounded only by its own timeout.
   */
  arrival(done: (received: readonly ReceivedWebhook[]) => boolean): Promise<ReceivedWebhook[]>;
  /** Called with every arrival (benchmarks). */
  onReceive?: (webhook: ReceivedWebhook) => void;
  close(): Promise<void>;
}

export async function startReceiver(
  respond: (nth: number, webhook: ReceivedWebhook) => Answer = () => 200,
  path = '/hook',
): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: { done: (received: readonly ReceivedWebhook[]) => boolean; resolve: () => void }[] = [];
  const hanging: ServerResponse[] = [];
  const outsideVocabulary: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: ReceivedWebhook['json'];
      try {
        json = JSON.parse(body) as ReceivedWebhook['json'];
      } catch {
        json = {} as ReceivedWebhook['json'];
      }
      const webhook = { headers: request.headers, body, json, receivedAt: performance.now(), receivedAtMs: Date.now() };
      received.push(webhook);
      outsideVocabulary.push(...vocabularyViolations(json).map((where) => `${json.event_type ?? 'webhook'} ${where}`));
      receiver.onReceive?.(webhook);
      for (const waiter of waiters.filter((w) => w.done(received))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const answer = respond(received.length, webhook);
      if (answer === 'hang') return void hanging.push(response);
      const { status, body: text = '', headers = {} } = typeof answer === 'number' ? { status: answer } : answer;
      response.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    waitFor(count, timeoutMs = 15_000) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${count} webhooks in ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({ done: (r) => r.length >= count, resolve: () => (clearTimeout(timer), resolve(received)) });
      });
    },
    arrival(done) {
      if (done(received)) return Promise.resolve(received);
      return new Promise((resolve) => waiters.push({ done, resolve: () => resolve(received) }));
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (outsideVocabulary.length > 0) throw new Error(`webhooks outside the verdict vocabulary: ${outsideVocabulary.join('; ')}`);
    },
  };
  return receiver;
}
