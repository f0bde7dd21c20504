import type { ProviderAssessment } from '../../domain/inspect/provider-assessment.js';
import type { RiskProvider } from '../../domain/ports/risk-provider.port.js';
import { getJson } from './http-json.js';

/**
 * Chainalysis' free sanctions screening API: `GET {url}/api/v1/address/{address}` with `X-API-Key`. The
 * answer is `{ identifications: [{ category, name, description, url }] }`: an empty list means the
 * address is not on the sanctions lists it covers; an entry of category `sanctions` names the designation.
 */
interface Identification {
  readonly category?: unknown;
  readonly name?: unknown;
}

export function assessIdentifications(identifications: readonly Identification[]): ProviderAssessment {
  const names = identifications.map((i) => (typeof i.name === 'string' ? i.name : 'unnamed identification'));
  const categories = identifications.map((i) => (typeof i.category === 'string' ? i.category.toLowerCase() : 'unknown'));
  const sanctioned = categories.some((c) => c.includes('sanction'));
  const other = categories.filter((c) => !c.includes('sanction'));
  return {
    risk_level: sanctioned ? 'sanctioned' : other.length > 0 ? 'high' : 'none',
    sanctioned,
    risk_categories: sanctioned ? ['sanctions'] : [],
    signals: categories.map((category, index) => `${category}: ${names[index]}`),
    summary: identifications.length === 0 ? 'not on the sanctions lists screened' : names.join('; '),
  };
}

export function chainalysisSanctions(settings: { name: string; url: string; key: string | null }): RiskProvider {
  return {
    name: settings.name,
    kind: 'chainalysis_sanctions',
    async inspect(address, _network, signal) {
      const url = `${settings.url}/api/v1/address/${encodeURIComponent(address)}`;
      const answer = await getJson(url, settings.key ? { 'x-api-key': settings.key } : {}, signal);
      if (!answer.ok) return answer;
      const identifications = (answer.body as { identifications?: unknown } | null)?.identifications;
      if (!Array.isArray(identifications)) return { ok: false, error: 'invalid_response' };
      return { ok: true, raw: answer.body, assessment: assessIdentifications(identifications as Identification[]) };
    },
  };
}
