import type { ErrorCode } from '../../domain/shared/errors.js';

/**
 * The document's examples: real answers of the service (captured from an embedded run with the shipped
 * minimal OFAC fixture), for a made-up address. read-api/schemas/examples.test.ts holds each one against its
 * schema, so an example cannot drift from what the code sends.
 */

/** The lists a verdict was checked against: one US list imported, UK and EU not (shared by the screen and health). */
export const SANCTIONS_COVERAGE_EXAMPLE = {
  as_of: '2026-11-25T10:14:03.118Z',
  checked: ['US'],
  not_checked: ['UK', 'EU'],
  lists: [
    {
      jurisdiction: 'US',
      source: 'ofac_sdn',
      name: 'OFAC SDN List',
      version: '2025-01-15',
      list_date: '2025-01-15',
      age_days: 679,
      imported_at: '2026-11-25T10:13:58.412Z',
      content_hash: 'sha256:25acf0d8e98487f426f9d4b68d1184ab355da5a0991cccb412bbe7c5cd6b683b',
    },
  ],
};

export const SCREEN_EXAMPLE = {
  schema_version: 1,
  address: '0x1111111111111111111111111111111111111111',
  network: 'ETH',
  provider: 'service',
  coverage: {
    data_available: false,
    label_count: 0,
    source_count: 0,
    sdn_checked: true,
    consensus_found: false,
    tiers: ['sanctions', 'consensus'],
    graph_analysed: false,
    data_versions: {
      taxonomy: '2026-11-1',
      snapshot: 'sha256:5725aca8ae0731c6cd36455a73578ac519fe79f6180a76f3d444dedcce45d880',
      sources: [],
    },
    sanctions: SANCTIONS_COVERAGE_EXAMPLE,
  },
  verdict: {
    ok: true,
    risk_level: 'none',
    risk_score: null,
    risk_categories: [],
    consensus_found: false,
    source_count: 0,
    confidence: null,
    primary_source_slug: null,
    label: null,
    sdn_match: null,
    labels: [],
    smart_contract: {
      is_contract: false,
      token_contract: false,
      symbol: null,
      decimals: null,
      is_well_known: false,
      logo_url: null,
      tags: [],
      primary_entity: null,
      complementary_entities: [],
    },
    risk_category_detail: [],
  },
  billing: {
    model: 'ledger',
    currency: 'USD',
    charged_usd: 0.1,
    balance_usd: 4.9,
    monthly_spent_usd: 0.1,
    monthly_cap_usd: null,
    replay: false,
  },
  elapsed_ms: 44,
};

export const CHECK_SUBMITTED_EXAMPLE = {
  check_id: '01a21355-e3df-7d52-bb82-2168501fea22',
  result_url: '/v2/check-address/01a21355-e3df-7d52-bb82-2168501fea22/result',
};

export const BALANCE_EXAMPLE = {
  plan: 'ledger',
  monthly_quota: null,
  units_used: 0,
  remaining_units: null,
  period_start: '2026-11-01T00:00:00.000Z',
  currency: 'USD',
  balance_usd: 4.9,
  monthly_spent_usd: 0.1,
  monthly_cap_usd: null,
  remaining_usd: 4.9,
};

export const HEALTH_EXAMPLE = {
  status: 'degraded',
  reasons: [
    'no UK sanctions list imported: verdicts are not checked against UK sanctions and say so (coverage.sanctions.not_checked)',
    'no EU sanctions list imported: verdicts are not checked against EU sanctions and say so (coverage.sanctions.not_checked)',
    'sanctions list ofac_sdn is 679 days old (version 2025-01-15; older than 14 days): refresh it with `data sync`',
  ],
  sanctions: {
    ...SANCTIONS_COVERAGE_EXAMPLE,
    required: [],
  },
  version: '2.0.0',
  mode: 'embedded',
  data_snapshot: 'sha256:5725aca8ae0731c6cd36455a73578ac519fe79f6180a76f3d444dedcce45d880',
  datasets: [
    {
      source: 'ofac_sdn',
      version: '2025-01-15',
      content_hash: 'sha256:25acf0d8e98487f426f9d4b68d1184ab355da5a0991cccb412bbe7c5cd6b683b',
      claims: 1,
    },
  ],
};

/** One real error body per code, shown on the status that carries it. */
export const ERROR_EXAMPLES: Partial<Record<ErrorCode, object>> = {
  validation_error: {
    error: {
      code: 'validation_error',
      message: 'the request is not valid',
    },
    detail: [
      {
        loc: ['body', 'address'],
        msg: 'not an ETH address (0x followed by 40 hex digits)',
        type: 'value_error',
        input: '0x1234',
      },
    ],
  },
  unsupported_network: {
    error: {
      code: 'unsupported_network',
      message: 'network BTC is not screened; use one of BSC, ETH, TRON',
    },
    supported_networks: ['BSC', 'ETH', 'TRON'],
  },
  invalid_api_key: {
    error: {
      code: 'invalid_api_key',
      message: 'unknown or revoked API key',
    },
  },
  insufficient_funds: {
    error: {
      code: 'insufficient_funds',
      message: 'balance too low for this call',
    },
    billing: {
      model: 'ledger',
      currency: 'USD',
      charged_usd: 0,
      balance_usd: 0,
      monthly_spent_usd: 0,
      monthly_cap_usd: null,
      shortfall_usd: 0.1,
      replay: false,
    },
  },
};
