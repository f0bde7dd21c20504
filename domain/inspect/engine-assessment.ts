import type { ScreenVerdict } from '../intel/screen-verdict.schema.js';
import type { ProviderAssessment } from './provider-assessment.js';

/** The own engine's light-screen verdict on the inspect's common scale. */
export function assessScreenVerdict({ coverage, verdict }: ScreenVerdict): ProviderAssessment {
  const level = verdict.risk_level ?? 'none';
  const sanctioned = level === 'sanctioned' || verdict.sdn_match !== null;
  const signals = [
    ...(verdict.sdn_match ? [`sdn_match:${verdict.sdn_match.list}`] : []),
    ...verdict.risk_category_detail.map((d) => `${d.slug}:${d.sources.join('+')}`),
  ];
  const lists = coverage.sanctions;
  const checked = `sanctions lists checked: ${lists.checked.join(', ') || 'none'}${lists.not_checked.length ? `; not checked: ${lists.not_checked.join(', ')}` : ''}`;
  const finding = !coverage.data_available
    ? 'no data on this address (unknown, not clean)'
    : sanctioned
      ? `sanctions list ${verdict.sdn_match?.list ?? 'hit'}${verdict.sdn_match?.entity ? `: ${verdict.sdn_match.entity}` : ''}`
      : `risk ${level}${verdict.risk_categories.length ? ` (${verdict.risk_categories.join(', ')})` : ''} from ${coverage.source_count} source(s)`;
  const summary = `${finding} (${checked})`;
  return {
    risk_level: sanctioned ? 'sanctioned' : level,
    sanctioned,
    risk_categories: [...verdict.risk_categories],
    signals,
    summary,
  };
}
