import { afterEach, describe, expect, it } from 'vitest';
import { eventRegistry } from '../domain/events/registry.js';
import type { RecordedEvent } from '../domain/ports/event-store.port.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import { openTempReadStore } from '../test/support/temp-read-store.js';
import { checkHistoryProjection } from './check-history.projection.js';
import { LEGACY_USAGE_COLLECTION, usageRepository, type UsageRowDoc } from './usage-rows.js';

/**
 * A data directory written before the usage rows were derived from the History row: its History rows have no
 * usage fields, and the usage projection's own rows (`usage_rows`) hold them, with the refunds of that time.
 * The usage answers read those rows, with the refunds folded since, beside the rows folded now.
 */
const pos = (n: number) => ({ commit: BigInt(n), prepare: BigInt(n) });
const recorded = (n: number, type: 'Charged' | 'Refunded', streamId: string, data: Record<string, unknown>): RecordedEvent => ({
  id: `e${n}`,
  type,
  data,
  metadata: { correlationId: 'legacy-data-dir', occurredAt: '2026-12-01T00:00:00.000Z', schemaVersion: eventRegistry.versionOf(type) },
  streamId,
  revision: BigInt(n),
  position: pos(n),
  created: new Date(0),
});

const legacyRow = (callId: string, at: string, refund: Partial<UsageRowDoc> = {}): UsageRowDoc => ({
  call_id: callId,
  user_id: 'u1',
  key_id: 'k1',
  product: 'full_check',
  endpoint: '/v2/check',
  network: 'ETH',
  subject: '0xabc',
  units: 1,
  charged_usd: 1.5,
  refunded_units: 0,
  refunded_usd: 0,
  refund_reason: null,
  period_start: '2026-12-01T00:00:00.000Z',
  created_at: at,
  ...refund,
});
/** The History row as it was folded then: no usage fields. */
const legacyHistoryRow = (id: string, at: string) => ({
  id,
  user_id: 'u1',
  kind: 'full_check',
  network: 'ETH',
  subject: '0xabc',
  risk_level: 'low',
  created_at: at,
  charge_event: { revision: 1 },
});

const opened: ReadStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

async function fold(store: ReadStore, events: readonly RecordedEvent[]) {
  const rows = store.collection(checkHistoryProjection.collection, checkHistoryProjection.indexes);
  for (const event of events) {
    const id = checkHistoryProjection.idOf(event);
    if (id) await rows.apply(id, event.position, (doc) => checkHistoryProjection.evolve(doc as never, event));
  }
}

describe('usage rows of a data directory written before they were derived from the History row', () => {
  it('reads the usage projection’s rows of that time, adds the refunds folded since, beside rows folded now', async () => {
    const store = await openTempReadStore();
    opened.push(store);
    const history = store.collection(checkHistoryProjection.collection, checkHistoryProjection.indexes);
    const legacy = store.collection<UsageRowDoc>(LEGACY_USAGE_COLLECTION, [['user_id', 'created_at']]);
    for (const [n, id, at] of [
      [1, 'old1', '2026-12-02T10:00:00.000Z'],
      [2, 'old2', '2026-12-03T10:00:00.000Z'],
    ] as const) {
      await history.apply(id, pos(n), () => legacyHistoryRow(id, at));
    }
    await legacy.apply('old1', pos(1), () => legacyRow('old1', '2026-12-02T10:00:00.000Z'));
    await legacy.apply('old2', pos(3), () =>
      legacyRow('old2', '2026-12-03T10:00:00.000Z', { refunded_units: 1, refunded_usd: 0.1, refund_reason: 'partial' }),
    );

    await fold(store, [
      recorded(4, 'Refunded', 'ledger-u1', {
        chargeId: 'old2',
        units: 0,
        amountMicros: 200_000,
        reason: 'provider_failed',
        at: '2026-12-04T09:00:00.000Z',
      }),
      recorded(5, 'Charged', 'ledger-u1', {
        chargeId: 'new1',
        product: 'screen',
        units: 0,
        amountMicros: 100_000,
        periodStart: '2026-12-01T00:00:00.000Z',
        at: '2026-12-04T10:00:00.000Z',
        details: { endpoint: 'POST /v2/screen', keyId: null, network: 'TRON', subject: 'T1' },
      }),
    ]);

    const usage = usageRepository(store);
    const page = await usage.page('u1', { page: 1, pageSize: 10 });
    expect(page.total).toBe(3);
    expect(page.rows).toEqual([
      {
        ...legacyRow('new1', '2026-12-04T10:00:00.000Z'),
        key_id: null,
        product: 'screen',
        endpoint: 'POST /v2/screen',
        network: 'TRON',
        subject: 'T1',
        units: 0,
        charged_usd: 0.1,
      },
      legacyRow('old2', '2026-12-03T10:00:00.000Z', { refunded_units: 1, refunded_usd: 0.3, refund_reason: 'provider_failed' }),
      legacyRow('old1', '2026-12-02T10:00:00.000Z'),
    ]);
    expect(await usage.all('u1')).toHaveLength(3);
  });
});
