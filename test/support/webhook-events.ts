import { randomUUID } from 'node:crypto';
import type { Services } from '../../infra/bootstrap.js';
import type { TransferAlert } from '../../domain/webhooks/webhook-event-types.js';
import type { WebhookEventRaised } from '../../domain/webhooks/webhook-raised.js';

/**
 * Appends a WebhookEventRaised the way an emitter does (in a stream of a source family, here a made-up
 * `check-…` stream), so webhook tests exercise the fan-out without the pipelines that will emit them.
 */
export async function raise(services: Services, event: WebhookEventRaised, family = 'check'): Promise<string> {
  const id = randomUUID();
  await services.store.append(
    `${family}-${randomUUID()}`,
    [{ id, type: event.type, data: event.data, metadata: { correlationId: id, occurredAt: new Date().toISOString(), schemaVersion: 1 } }],
    { expected: 'no_stream' },
  );
  return id;
}

export const madeUpAlert = (riskLevel: TransferAlert['riskLevel'], category: string): TransferAlert => ({
  category,
  riskLevel,
  ruleType: 'Direct exposure',
  actualShare: 42.5,
  thresholdShare: 10,
  thresholdValue: 1000,
  entityName: 'Sender 0x…aa (exposed to Mixer)',
  entityAddress: '0x00000000000000000000000000000000000000aa',
  direction: 'incoming',
  entityScore: 0,
});

export const madeUpTransfer = (subgroupId: string, alerts: readonly TransferAlert[]) => ({
  check_id: randomUUID(),
  tx_hash: `0x${'0a'.repeat(32)}`,
  chain: 'ETH' as const,
  subgroup_id: subgroupId,
  worst_level: alerts
    .map((a) => a.riskLevel)
    .sort((a, b) => ['Low', 'Medium', 'High', 'Severe'].indexOf(b) - ['Low', 'Medium', 'High', 'Severe'].indexOf(a))[0]!,
  alerts: [...alerts],
});

/** Bounded polling (every 10 ms) until `check` yields a value: that value, or the last failure after `timeoutMs`. */
export async function until<T>(check: () => Promise<T>, timeoutMs = 15_000): Promise<Exclude<T, false | null | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== false && value !== null && value !== undefined) return value as Exclude<T, false | null | undefined>;
    if (Date.now() > deadline) throw new Error(`condition still unmet after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
