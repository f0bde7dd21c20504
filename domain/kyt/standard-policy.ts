import { TAXONOMY } from '../intel/taxonomy.js';
import type { Policy } from './policy.types.js';

/**
 * The standard policy, version 2026-11-1: the default rules of docs/ARCHITECTURE.md#standard-policy applied to
 * incoming transfers. Within each rule type the first rule that matches a category wins, so every
 * category raises at most one direct, one indirect and one pattern alert. Unknown senders match no
 * rule: unknown never auto-rejects. Rules on the composite score alone, which some vendors add, are left out:
 * the category rules already carry severity and USD, and a score rule would alert twice on one finding.
 * A rule's note says what it stands for in the words an analyst reads on a case, with no reference to a
 * document the user does not have.
 */
export const STANDARD_POLICY: Policy = {
  name: 'standard',
  version: '2026-11-1',
  taxonomyVersion: TAXONOMY.version,
  rules: [
    {
      id: 'D1',
      ruleType: 'Direct exposure',
      categories: { slugs: ['sanctions'] },
      minSharePercent: 0,
      minUsd: 0,
      level: 'Severe',
      note: 'a sanctioned sender, any amount: sanctions have no de-minimis',
    },
    {
      id: 'D2',
      ruleType: 'Direct exposure',
      categories: { levels: ['severe'] },
      minSharePercent: 0,
      minUsd: 0,
      level: 'Severe',
      note: 'terrorist financing, CSAM, sanctioned jurisdiction and the other severe categories, any amount',
    },
    {
      id: 'D3',
      ruleType: 'Direct exposure',
      categories: { slugs: ['scam', 'phishing'] },
      minSharePercent: 0,
      minUsd: 1_000,
      level: 'High',
      note: 'funds straight from a scam or phishing address, $1,000 or more',
    },
    {
      id: 'D4',
      ruleType: 'Direct exposure',
      categories: { levels: ['high'] },
      minSharePercent: 0,
      minUsd: 5_000,
      level: 'High',
      note: 'funds straight from any high-risk category, $5,000 or more',
    },
    {
      id: 'D5',
      ruleType: 'Direct exposure',
      categories: { slugs: ['mixer'] },
      minSharePercent: 0,
      minUsd: 1_000,
      level: 'Medium',
      note: 'funds straight from a mixer, $1,000 or more',
    },
    {
      id: 'D6',
      ruleType: 'Direct exposure',
      categories: { slugs: ['gambling', 'no_kyc_exchange'] },
      minSharePercent: 0,
      minUsd: 2_000,
      level: 'Medium',
      note: 'funds straight from unlicensed gambling or a no-KYC exchange, $2,000 or more',
    },
    {
      id: 'D7',
      ruleType: 'Direct exposure',
      categories: { levels: ['severe', 'high', 'medium'] },
      minSharePercent: 0,
      minUsd: 500,
      level: 'Low',
      note: 'funds straight from any other category above low risk, $500 or more: an alert only',
    },
    {
      id: 'I1',
      ruleType: 'Origin of funds / Indirect',
      categories: { slugs: ['sanctions'] },
      minSharePercent: 0,
      minUsd: 1_000,
      level: 'High',
      note: 'funds traced to a sanctioned source, $1,000 or more: a review, not an automatic block',
    },
    {
      id: 'I2',
      ruleType: 'Origin of funds / Indirect',
      categories: { levels: ['severe', 'high'] },
      minSharePercent: 5,
      minUsd: 20_000,
      level: 'High',
      note: 'at least 5 % and $20,000 of the funds traced to a severe or high-risk source',
    },
    {
      id: 'I3',
      ruleType: 'Origin of funds / Indirect',
      categories: { slugs: ['mixer'] },
      minSharePercent: 10,
      minUsd: 1_000,
      level: 'Medium',
      note: 'at least 10 % and $1,000 of the funds traced to a mixer',
    },
    {
      id: 'I4',
      ruleType: 'Origin of funds / Indirect',
      categories: { levels: ['severe', 'high', 'medium'] },
      minSharePercent: 0,
      minUsd: 500,
      level: 'Low',
      note: 'funds traced to any other category above low risk, $500 or more: an alert only',
    },
    {
      id: 'P1',
      ruleType: 'Pattern',
      categories: { slugs: ['address_poisoning'] },
      minSharePercent: 0,
      minUsd: 0,
      level: 'Medium',
      note: 'a zero-value token transfer moved by someone other than its sender: the address-poisoning pattern',
    },
  ],
};
