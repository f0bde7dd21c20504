import type { ScreenVerdict } from '../intel/screen-verdict.schema.js';
import type { ProviderAssessment } from './provider-assessment.js';

/** The own engine's light-screen verdict on the inspect's common scale. */
export function assessScreenVerdict({ coverage, verdict }: ScreenVerdict): ProviderAssessment {
  const level = verdict.addressLevel ?? 'none';
  const match = verdict.sanctionsMatch;
  const sanctioned = level === 'sanctioned' || match !== null;
  const signals = [...(match ? [`sdn_match:${match.list}`] : []), ...verdict.categoryDetail.map((d) => `${d.slug}:${d.sources.join('+')}`)];
  const lists = coverage.sanctions ?? { checked: [], notChecked: [] };
  const checked = `sanctions lists checked: ${lists.checked.join(', ') || 'none'}${lists.notChecked.length ? `; not checked: ${lists.notChecked.join(', ')}` : ''}`;
  const finding = !coverage.dataAvailable
    ? 'no data on this address (unknown, not clean)'
    : sanctioned
      ? `sanctions list ${match?.list ?? 'hit'}${match?.entity ? `: ${match.entity}` : ''}`
      : `risk ${level}${verdict.riskCategories.length ? ` (${verdict.riskCategories.join(', ')})` : ''} from ${verdict.sourceCount} source(s)`;
  const summary = `${finding} (${checked})`;
  return {
    risk_level: sanctioned ? 'sanctioned' : level,
    sanctioned,
    risk_categories: [...verdict.riskCategories],
    signals,
    summary,
  };
}
