import type { CaseAlert } from '../../domain/alerts/alert-case.events.js';

/** One direct-exposure sanctions alert on a made-up entity: the alert the alert and re-evaluation tests share. */
export const madeUpSanctionsAlert: CaseAlert = {
  category: 'sanctions',
  riskLevel: 'Severe',
  ruleType: 'Direct exposure',
  actualShare: 1,
  thresholdShare: 0,
  thresholdValue: 0,
  entityName: 'Made-up Entity',
  entityAddress: '0x00000000000000000000000000000000000000aa',
  direction: 'incoming',
  entityScore: 100,
};
