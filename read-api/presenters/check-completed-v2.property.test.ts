import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventRegistry } from '../../domain/events/registry.js';
import type { FullCheckVerdict } from '../../domain/address-check/full-check-verdict.js';
import type { RecordedEvent } from '../../domain/ports/event-store.port.js';
import { fullCheckVerdictArbitrary } from '../../test/support/verdict-arbitraries.js';
import { presentFullCheck } from './full-check.presenter.js';
import { categoryDetailBody, labelRowBody, sdnMatchBody, smartContractBody } from './screen-verdict.body.js';

/**
 * CheckCompleted version 2 (what main wrote until the screen's verdict was a domain fact): the domain verdict
 * at its version 1, the address's own intelligence in the screen body's words, exactly the rows its body
 * served. Read through the registry, any such event becomes the verdict it stated and presents the same body.
 */
const asVersion2 = (verdict: FullCheckVerdict) => ({
  ...verdict,
  version: 1,
  intel: {
    consensusFound: verdict.intel.consensusFound,
    label: verdict.intel.label,
    sdnMatch: verdict.intel.sdnMatch && sdnMatchBody(verdict.intel.sdnMatch),
    labels: verdict.intel.labels.map(labelRowBody),
    smartContract: smartContractBody(verdict.intel.smartContract),
    categoryDetail: verdict.intel.categoryDetail.map(categoryDetailBody),
  },
});

const recorded = (data: unknown): RecordedEvent =>
  ({
    id: '00000000-0000-4000-8000-000000000002',
    type: 'CheckCompleted',
    data,
    metadata: { correlationId: 'c', occurredAt: '2026-11-29T05:23:38.269Z', schemaVersion: 2 },
    streamId: 'check-c',
    revision: 6n,
    position: 1n,
    created: new Date(0),
  }) as unknown as RecordedEvent;

describe('CheckCompleted version 2, read through the registry', () => {
  it('is the verdict it stated, field for field, and presents the body it was served', () => {
    fc.assert(
      fc.property(fullCheckVerdictArbitrary, (verdict) => {
        const stored = JSON.parse(JSON.stringify({ verdict: asVersion2(verdict), at: verdict.completedAt })) as unknown;
        const event = eventRegistry.parse(recorded(stored));
        if (event?.type !== 'CheckCompleted') throw new Error('not read as CheckCompleted');
        expect(event.data.verdict).toEqual(JSON.parse(JSON.stringify(verdict)));
        expect(JSON.stringify(presentFullCheck(event.data.verdict))).toBe(JSON.stringify(presentFullCheck(verdict)));
      }),
      { numRuns: 100 },
    );
  });
});
