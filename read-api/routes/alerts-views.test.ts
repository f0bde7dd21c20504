import { describe, expect, it } from 'vitest';
import type { AlertCaseDoc } from '../../projections/alert-cases.projection.js';
import { alertSummary } from './alerts-views.js';
import { madeUpSanctionsAlert } from '../../test/support/made-up-alert.js';

const T0 = '2026-11-21T10:00:00.000Z';
const WORDS = { source: 'made_up_list', change: 'dataset_imported', version: '2026-11-21', changed_at: T0 } as const;

const doc = (reasons: NonNullable<AlertCaseDoc['retroactive']>['reasons']): AlertCaseDoc => ({
  alertId: 'tc1-0',
  checkId: 'tc1',
  alertIndex: 0,
  subgroupId: 'sg1',
  chain: 'ETH',
  txHash: '0x' + 'ab'.repeat(32),
  alert: madeUpSanctionsAlert,
  riskLevel: 'Severe',
  status: 'open',
  closeReason: null,
  closeNote: null,
  assignee: null,
  assigneeId: null,
  comments: [],
  history: [],
  checkedAt: T0,
  retroactive: { changeKey: 'dataset:made_up_list:sha256:2', reasons },
  createdAt: T0,
  updatedAt: T0,
});

describe('an alert case as /v2/alerts shows it', () => {
  it('shows a retroactive change’s reasons in the API’s words, from the fact or from a document folded before', () => {
    const fact = { source: 'made_up_list', change: 'dataset_imported', version: '2026-11-21', changedAt: T0 } as const;
    for (const reasons of [[fact], [WORDS]]) {
      const shown = alertSummary(doc(reasons)).retroactive?.reasons;
      expect(JSON.stringify(shown)).toBe(JSON.stringify([WORDS]));
    }
  });
});
