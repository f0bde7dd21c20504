import { Agent, request } from 'undici';
import type { WebhookPost, WebhookTransport } from '../../domain/ports/webhook-transport.port.js';
import { DELIVERY_TIMEOUT_MS } from '../../domain/webhooks/retry-schedule.js';
import type { AttemptOutcome } from '../../domain/webhooks/webhook-delivery.decider.js';
import { preview } from '../../domain/webhooks/webhook-envelope.js';
import { createSsrfGuard, TargetRefusedError, type HostResolver } from './ssrf-guard.js';

/**
 * WebhookTransport over undici: one POST per attempt through an Agent whose sockets resolve host names
 * with the SSRF guard's lookup; redirects are not followed (undici's `request` never follows them); the
 * whole exchange (connect, headers, the first KiB of the answer) is bounded by `timeoutMs`, 10 s by
 * default as the spec asks of receivers. Connections are kept alive between deliveries to one endpoint.
 */
const READ_LIMIT_BYTES = 1024;

export function createUndiciWebhookTransport(options: {
  allowLocal: boolean;
  timeoutMs?: number;
  resolver?: HostResolver;
}): WebhookTransport {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const guard = createSsrfGuard({ allowLocal: options.allowLocal, ...(options.resolver ? { resolver: options.resolver } : {}) });
  const agent = new Agent({ connect: { lookup: guard.lookup, timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });

  async function send(post: WebhookPost, signal: AbortSignal): Promise<AttemptOutcome> {
    const checked = guard.checkUrl(post.url);
    if (!checked.ok) return { kind: 'refused', reason: checked.reason };
    const response = await request(checked.url, {
      method: 'POST',
      headers: { ...post.headers },
      body: post.body,
      dispatcher: agent,
      signal,
    });
    return { kind: 'response', responseCode: response.statusCode, bodyPreview: preview(await readSome(response.body)) };
  }

  return {
    vet: (url) => guard.vet(url),
    async post(post) {
      const started = performance.now();
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      let outcome: AttemptOutcome;
      try {
        outcome = await send(post, controller.signal);
      } catch (error) {
        outcome = failureOutcome(error, controller.signal.aborted, timeoutMs);
      } finally {
        clearTimeout(timer);
      }
      return { outcome, durationMs: Math.round(performance.now() - started) };
    },
    close: () => agent.destroy(),
  };
}

/** Reads the start of an answer for the record; a short answer is read to the end so the socket is reused. */
async function readSome(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= READ_LIMIT_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks)
    .subarray(0, READ_LIMIT_BYTES)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
}

function failureOutcome(error: unknown, aborted: boolean, timeoutMs: number): AttemptOutcome {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof TargetRefusedError) return { kind: 'refused', reason: cause.message };
  }
  const code = (error as { code?: string }).code;
  if (aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { kind: 'timeout', afterMs: timeoutMs };
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const message = [code, cause?.code, (error as Error).message].filter(Boolean).join(' ');
  return { kind: 'connection_error', message: message.slice(0, 300) };
}
