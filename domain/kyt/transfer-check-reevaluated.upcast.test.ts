import { describe, expect, it } from 'vitest';
import { eventRegistry } from '../events/registry.js';
import { storedEvent } from '../../test/support/stored-event.js';
import { madeUpSanctionsAlert } from '../../test/support/made-up-alert.js';

const T0 = '2026-11-21T10:00:00.000Z';
const stored = (data: unknown) => storedEvent('TransferCheckReevaluated', 'transfer-tc1', data, { occurredAt: T0, revision: 3n });

/** A re-evaluation as version 1 recorded it: the change's reasons in the webhook's words (made-up values). */
const reevaluatedV1 = {
  checkId: 'tc1',
  changeKey: 'dataset:made_up_list:sha256:2',
  reasons: [{ source: 'made_up_list', change: 'dataset_imported', version: '2026-11-21', changed_at: T0 }],
  policy: { id: 'standard', version: '2026-11-1' },
  facts: [],
  alerts: [madeUpSanctionsAlert],
  firstAlertIndex: 0,
  at: T0,
};

describe('TransferCheckReevaluated written before change reasons were domain facts', () => {
  it('version 1 reads with its reasons as domain facts, everything else as recorded', () => {
    expect(eventRegistry.parse(stored(reevaluatedV1))?.data).toEqual({
      ...reevaluatedV1,
      reasons: [{ source: 'made_up_list', change: 'dataset_imported', version: '2026-11-21', changedAt: T0 }],
    });
  });
});
