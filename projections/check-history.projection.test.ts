import { describe, expect, it } from 'vitest';
import { ledgerPeriodStream, ledgerStream } from '../domain/ledger/ledger.events.js';
import type { RecordedEvent } from '../domain/ports/event-store.port.js';
import { checkHistoryProjection } from './check-history.projection.js';

const charged = (streamId: string, chargeId: string): RecordedEvent => ({
  id: `e-${chargeId}`,
  type: 'Charged',
  data: {
    chargeId,
    product: 'full_check',
    units: 0,
    amountMicros: 500_000,
    periodStart: '2026-12-01T00:00:00.000Z',
    at: '2026-12-03T10:00:00.000Z',
    details: { endpoint: '/v2/check', keyId: null, network: 'ETH', subject: '0xabc' },
  },
  metadata: { correlationId: 'c', occurredAt: '2026-12-03T10:00:00.000Z', schemaVersion: 1 },
  streamId,
  revision: 0n,
  position: { commit: 1n, prepare: 1n },
  created: new Date(0),
});

describe('the check history', () => {
  it('files a charge of the root ledger stream under its user', () => {
    const event = charged(ledgerStream('u1'), 'chk-1');
    expect(checkHistoryProjection.idOf(event)).toBe('chk-1');
    expect(checkHistoryProjection.evolve(null, event)).toMatchObject({ id: 'chk-1', user_id: 'u1', kind: 'full_check', network: 'ETH' });
  });

  it('files a charge of a later period stream under the same user, not under "user@month"', () => {
    const event = charged(ledgerPeriodStream('u1', '2026-12-01T00:00:00.000Z'), 'chk-2');
    expect(event.streamId).toBe('ledger-u1@2026-12');
    expect(checkHistoryProjection.evolve(null, event)).toMatchObject({ id: 'chk-2', user_id: 'u1' });
  });
});
