import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  actionOf,
  ALERT_LEVELS,
  CATEGORY_LEVELS,
  COMPOSITE_LEVELS,
  compositeLevelOf,
  DECISIONS,
  decisionOf,
  HIGH_RISK_LEVELS,
  highRiskLevelOf,
  INSPECT_DECISIONS,
  parseWord,
  RISK_LEVELS,
  riskOfCategoryLevel,
  toneOf,
  UNKNOWN_DECISION,
  VERDICT_VOCABULARY,
} from './verdict-vocabulary.js';

/** The table as docs/api.md shows it ("One vocabulary"), rendered from the code's. */
export function vocabularyMarkdown(): string {
  const head =
    '| address `risk_level` | category level (taxonomy) | severity | alert level (KYT) | composite `risk_level` | `recommended_action` | full check `decision` | `decision` on exposure alone | `service.check.high_risk` | inspect `decision` | meaning |';
  const rows = VERDICT_VOCABULARY.map((r) =>
    [
      `\`${r.riskLevel}\``,
      `\`${r.categoryLevel}\``,
      r.severity[0] === r.severity[1] ? String(r.severity[0]) : `${r.severity[0]}–${r.severity[1]}`,
      r.alertLevel ? `\`${r.alertLevel}\`` : '(no alert)',
      `\`${r.compositeLevel}\``,
      `\`${r.action}\``,
      `\`${r.decision}\``,
      `\`${r.exposureDecision}\``,
      r.highRiskLevel ? `\`${r.highRiskLevel}\`` : '(not raised)',
      `\`${r.inspectDecision}\``,
      r.meaning,
    ].join(' | '),
  );
  const unknown = `Nothing known (\`data_available: false\`, no transfer history): \`risk_level\` \`none\`, \`decision\` \`${UNKNOWN_DECISION}\`; a transfer check counts such a sender in \`unknown_share\` and raises no alert on it (unknown never auto-rejects).`;
  return [head, `|${' --- |'.repeat(11)}`, ...rows.map((r) => `| ${r} |`), '', unknown].join('\n');
}

const DOCS = 'docs/api.md';
const BLOCK = /(<!-- vocabulary:start[^\n]*-->\n)[\s\S]*?(<!-- vocabulary:end -->)/;

describe('the verdict vocabulary: one table, every scale', () => {
  it('each scale appears once, in its own order, in the table', () => {
    expect(VERDICT_VOCABULARY.map((r) => r.riskLevel)).toEqual([...RISK_LEVELS]);
    const distinct = <T>(values: readonly T[]) => values.filter((v, i) => values.indexOf(v) === i);
    expect(distinct(VERDICT_VOCABULARY.map((r) => r.categoryLevel))).toEqual([...CATEGORY_LEVELS]);
    expect(distinct(VERDICT_VOCABULARY.flatMap((r) => (r.alertLevel ? [r.alertLevel] : [])))).toEqual([...ALERT_LEVELS]);
    expect(distinct(VERDICT_VOCABULARY.map((r) => r.compositeLevel))).toEqual([...COMPOSITE_LEVELS]);
    expect(distinct(VERDICT_VOCABULARY.map((r) => r.action))).toEqual([...ACTIONS]);
    expect(distinct([...VERDICT_VOCABULARY.map((r) => r.decision), UNKNOWN_DECISION])).toEqual([...DECISIONS]);
    expect(distinct(VERDICT_VOCABULARY.flatMap((r) => (r.highRiskLevel ? [r.highRiskLevel] : [])))).toEqual([...HIGH_RISK_LEVELS]);
    expect(distinct(VERDICT_VOCABULARY.map((r) => r.inspectDecision))).toEqual([...INSPECT_DECISIONS]);
    // severities climb without a gap from 0 to 10
    expect(VERDICT_VOCABULARY.slice(0, 5).map((r) => r.severity)).toEqual([
      [0, 0],
      [1, 3],
      [4, 6],
      [7, 8],
      [9, 10],
    ]);
  });

  it('the presenters’ words come from it: actions, composite, category levels, decisions, the high-risk webhook', () => {
    expect(ALERT_LEVELS.map(actionOf)).toEqual(['accept', 'review', 'hold', 'block']);
    expect(actionOf(null)).toBe('accept');
    expect([0, 0.1, 3.9, 4, 6.9, 7, 8, 8.9, 9, 10].map(compositeLevelOf)).toEqual([
      'none',
      'low',
      'low',
      'medium',
      'medium',
      'high',
      'high',
      'high',
      'severe',
      'severe',
    ]);
    expect(CATEGORY_LEVELS.map(riskOfCategoryLevel)).toEqual(['none', 'low', 'medium', 'high', 'critical']);
    expect(RISK_LEVELS.map(highRiskLevelOf)).toEqual([null, null, null, 'high', 'severe', 'severe']);
    // the address itself decides reject; exposure alone at most review
    expect(decisionOf('high', 'high')).toBe('reject');
    expect(decisionOf('none', 'high')).toBe('review');
    expect(decisionOf('low', 'medium')).toBe('review');
    expect(decisionOf('none', 'low')).toBe('accept');
    expect(decisionOf('sanctioned', 'sanctioned')).toBe('reject');
  });

  it('any case parses to the word; pages colour every word', () => {
    expect(parseWord(ALERT_LEVELS, ' severe ')).toBe('Severe');
    expect(parseWord(RISK_LEVELS, 'CRITICAL')).toBe('critical');
    expect(parseWord(ALERT_LEVELS, 'critical')).toBeNull();
    for (const word of [...RISK_LEVELS, ...ALERT_LEVELS, ...CATEGORY_LEVELS]) expect(toneOf(word), word).not.toBeNull();
  });

  it('docs/api.md shows this very table (WRITE_DOCS=1 rewrites it)', () => {
    const docs = readFileSync(DOCS, 'utf8');
    const expected = docs.replace(BLOCK, `$1${vocabularyMarkdown()}\n$2`);
    if (process.env.WRITE_DOCS === '1') writeFileSync(DOCS, expected);
    expect(BLOCK.test(docs)).toBe(true);
    expect(
      docs,
      'the table in docs/api.md differs from the code: run WRITE_DOCS=1 npx vitest run domain/shared/verdict-vocabulary.test.ts',
    ).toBe(process.env.WRITE_DOCS === '1' ? docs : expected);
  });
});
