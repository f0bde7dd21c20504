import { TAXONOMY } from '../intel/taxonomy.js';
import type { Policy } from './policy.types.js';

/**
 * The standard policy, version 2026-11-1: the default rules of docs/ARCHITECTURE.md#standard-policy applied to
 * incoming transfers. Within each rule type the first rule that matches a category wins, so every
 * category raises at most one direct, one indirect and one pattern alert. Unknown senders match no
 * rule: unknown never auto-rejects. The composite-score rules of §2b (11, 12) are left out: the
 * category rules already carry severity and USD, and a score rule would alert twice on one finding.
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
      note: 'a sanctioned sender, any amount (§2b rule 1; sanctions have no de-minimis)',
    },
    {
      id: 'D2',
      ruleType: 'Direct exposure',
      categories: { levels: ['severe'] },
      minSharePercent: 0,
      minUsd: 0,
      level: 'Severe',
      note: 'terrorist financing, CSAM, sanctioned jurisdiction and the other severe categories, any amount (§2b rule 2)',
    },
    {
      id: 'D3',
      ruleType: 'Direct exposure',
      categories: { slugs: ['scam', 'phishing'] },
      minSharePercent: 0,
      minUsd: 1_000,
      level: 'High',
      note: 'funds straight from a scam or phishing address, $1,000 or more (§2b rule 4, inbound)',
    },
    {
      id: 'D4',
      ruleType: 'Direct exposure',
      categories: { levels: ['high'] },
      minSharePercent: 0,
      minUsd: 5_000,
      level: 'High',
      note: 'funds straight from any high-risk category, $5,000 or more (§2b rule 6)',
    },
    {
      id: 'D5',
      ruleType: 'Direct exposure',
      categories: { slugs: ['mixer'] },
      minSharePercent: 0,
      minUsd: 1_000,
      level: 'Medium',
      note: 'a mixer withdrawal, $1,000 or more (§2b rule 8 applied to the direct sender)',
    },
    {
      id: 'D6',
      ruleType: 'Direct exposure',
      categories: { slugs: ['gambling', 'no_kyc_exchange'] },
      minSharePercent: 0,
      minUsd: 2_000,
      level: 'Medium',
      note: 'unlicensed gambling or a no-KYC exchange, $2,000 or more (§2b rule 10)',
    },
    {
      id: 'D7',
      ruleType: 'Direct exposure',
      categories: { levels: ['severe', 'high', 'medium'] },
      minSharePercent: 0,
      minUsd: 500,
      level: 'Low',
      note: 'anything else above low risk, $500 or more: alert only (§2b rule 16)',
    },
    {
      id: 'I1',
      ruleType: 'Origin of funds / Indirect',
      categories: { slugs: ['sanctions'] },
      minSharePercent: 0,
      minUsd: 1_000,
      level: 'High',
      note: 'funds traced to a sanctioned source, $1,000 or more: review, not an automatic block (§2b rule 9)',
    },
    {
      id: 'I2',
      ruleType: 'Origin of funds / Indirect',
      categories: { levels: ['severe', 'high'] },
      minSharePercent: 5,
      minUsd: 20_000,
      level: 'High',
      note: 'at least 5 % and $20,000 traced to a severe or high-risk source (§2b rule 7)',
    },
    {
      id: 'I3',
      ruleType: 'Origin of funds / Indirect',
      categories: { slugs: ['mixer'] },
      minSharePercent: 10,
      minUsd: 1_000,
      level: 'Medium',
      note: 'at least 10 % and $1,000 traced to a mixer (§2b rule 8)',
    },
    {
      id: 'I4',
      ruleType: 'Origin of funds / Indirect',
      categories: { levels: ['severe', 'high', 'medium'] },
      minSharePercent: 0,
      minUsd: 500,
      level: 'Low',
      note: 'anything else above low risk traced, $500 or more: alert only (§2b rule 16)',
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
