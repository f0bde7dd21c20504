import { present } from '../../domain/shared/present.js';
import { worstLevel, type ProviderAssessment } from '../../domain/inspect/provider-assessment.js';
import { categoryOf, LEVEL_TO_RISK, TAXONOMY, type RiskLevel } from '../../domain/intel/taxonomy.js';
import type { RiskProvider } from '../../domain/ports/risk-provider.port.js';
import type { Network } from '../../domain/shared/network.js';
import { getJson } from './http-json.js';

/**
 * GoPlus address security: `GET {url}/api/v1/address_security/{address}?chain_id={id}`, optional
 * `Authorization: Bearer <access token>`. The answer is `{ code, message, result }`; `code` 1 is
 * success, and `result` holds boolean risk flags as the strings "0"/"1", plus `data_source` and
 * `number_of_malicious_contracts_created` (a count as a string). `contract_address` says what an address
 * is, not that anything is wrong with it, so it is not a risk flag.
 */
const CHAIN_IDS: Readonly<Record<Network, string>> = { ETH: '1', BSC: '56', TRON: 'tron' };

/** Each flag on the taxonomy; flags without a matching category carry their own level. */
const FLAGS: Readonly<Record<string, { category: string } | { level: RiskLevel }>> = {
  sanctioned: { category: 'sanctions' },
  stealing_attack: { category: 'stolen_funds' },
  phishing_activities: { category: 'phishing' },
  blackmail_activities: { category: 'extortion' },
  darkweb_transactions: { category: 'darknet_market' },
  money_laundering: { category: 'money_laundering' },
  cybercrime: { category: 'illicit_actor_org' },
  financial_crime: { category: 'scam' },
  fake_kyc: { category: 'fraud_shop' },
  honeypot_related_address: { category: 'scam' },
  fake_token: { category: 'scam' },
  fake_standard_interface: { category: 'scam' },
  malicious_mining_activities: { category: 'malware' },
  mixer: { category: 'mixer' },
  blacklist_doubt: { level: 'medium' },
  gas_abuse: { level: 'low' },
  reinit: { level: 'low' },
};

const levelOfCategory = (slug: string): RiskLevel => LEVEL_TO_RISK[categoryOf(TAXONOMY, slug)?.level ?? 'info'];

export function assessGoPlusResult(result: Readonly<Record<string, unknown>>): ProviderAssessment {
  const raised = Object.keys(FLAGS).filter((flag) => result[flag] === '1' || result[flag] === 1);
  const malicious = Number(result.number_of_malicious_contracts_created ?? 0);
  const signals = [...raised, ...(malicious > 0 ? [`number_of_malicious_contracts_created=${malicious}`] : [])];
  const categories = new Set<string>();
  const levels: RiskLevel[] = [];
  for (const flag of raised) {
    const mapping = present(FLAGS[flag], 'raised flags are keys of the table');
    if ('category' in mapping) {
      categories.add(mapping.category);
      levels.push(levelOfCategory(mapping.category));
    } else levels.push(mapping.level);
  }
  if (malicious > 0) {
    categories.add('malware');
    levels.push(levelOfCategory('malware'));
  }
  const sanctioned = raised.includes('sanctioned');
  const source = typeof result.data_source === 'string' && result.data_source !== '' ? ` (data source: ${result.data_source})` : '';
  return {
    risk_level: sanctioned ? 'sanctioned' : worstLevel(levels),
    sanctioned,
    risk_categories: [...categories].sort(),
    signals,
    summary: signals.length === 0 ? 'no risk flag set' : `flags ${signals.join(', ')}${source}`,
  };
}

export function goPlusAddressSecurity(settings: { name: string; url: string; key: string | null }): RiskProvider {
  return {
    name: settings.name,
    kind: 'goplus_address_security',
    async inspect(address, network, signal) {
      const url = `${settings.url}/api/v1/address_security/${encodeURIComponent(address)}?chain_id=${CHAIN_IDS[network]}`;
      const answer = await getJson(url, settings.key ? { authorization: `Bearer ${settings.key}` } : {}, signal);
      if (!answer.ok) return answer;
      const body = answer.body as { code?: unknown; result?: unknown } | null;
      if (!body || typeof body !== 'object' || typeof body.code !== 'number') return { ok: false, error: 'invalid_response' };
      if (body.code !== 1) return { ok: false, error: `provider_code_${body.code}` };
      if (!body.result || typeof body.result !== 'object') return { ok: false, error: 'invalid_response' };
      return { ok: true, raw: answer.body, assessment: assessGoPlusResult(body.result as Record<string, unknown>) };
    },
  };
}
