import { describe, expect, it } from 'vitest';
import { eventRegistry } from '../events/registry.js';
import { storedEvent } from '../../test/support/stored-event.js';
import { madeUpSanctionsAlert } from '../../test/support/made-up-alert.js';

const T0 = '2026-11-21T10:00:00.000Z';
const stored = (data: unknown) => storedEvent('AlertCaseOpened', 'alertcase-tc1-0', data, { occurredAt: T0, revision: 0n });

/** A case as version 1 opened it (made-up values). */
const openedV1 = {
  alertId: 'tc1-0',
  checkId: 'tc1',
  alertIndex: 0,
  subgroupId: 'sg1',
  chain: 'ETH',
  txHash: '0x' + 'ab'.repeat(32),
  alert: madeUpSanctionsAlert,
  checkedAt: '2026-11-20T10:00:00.000Z',
  at: T0,
};

describe('AlertCaseOpened written before change reasons were domain facts', () => {
  it('version 1 of a retroactive case reads with its change’s reasons as domain facts', () => {
    const retroactiveV1 = {
      ...openedV1,
      retroactive: {
        changeKey: 'curation:entry-7',
        reasons: [{ source: 'curated', change: 'curator_entry_added', version: '2026-11-21', changed_at: T0 }],
      },
    };
    expect(eventRegistry.parse(stored(retroactiveV1))?.data).toEqual({
      ...openedV1,
      retroactive: {
        changeKey: 'curation:entry-7',
        reasons: [{ source: 'curated', change: 'curator_entry_added', version: '2026-11-21', changedAt: T0 }],
      },
    });
  });

  it('version 1 of a case the check itself raised reads as recorded (it has no change)', () => {
    expect(eventRegistry.parse(stored(openedV1))?.data).toEqual(openedV1);
  });
});
