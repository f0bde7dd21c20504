import { describe, expect, it } from 'vitest';
import { legAmount, readTransferResult, senderVerdict, transferVersions, type SenderView } from './transfer-evidence.js';

const sender = (over: Partial<SenderView> = {}): SenderView => ({
  address: '0xa000000000000000000000000000000000000001',
  label: null,
  usd_value: 33_000,
  share: 100,
  legs: 1,
  data_available: false,
  direct_categories: [],
  indirect_categories: [],
  graph: 'analysed',
  ...over,
});

describe('transfer check evidence', () => {
  it('a sender with exposure is never "no data", whatever its own labels: its verdict is the exposure', () => {
    const traced = sender({ risk_level: 'severe', indirect_categories: [{ slug: 'sanctions', share: 100, hops: 1 }] });
    expect(senderVerdict(traced).value).not.toContain('no data');
    expect(senderVerdict(traced).value).toContain('severe');
    expect(senderVerdict(sender()).value).toContain('no data: unknown, not clean');
    expect(senderVerdict(sender({ data_available: true, label: 'example exchange' })).value).toContain('known, no risk category');
  });

  it('amounts are exact in whole units of their asset, base units when the decimals are unknown', () => {
    const leg = { kind: 'native', token: null, symbol: 'ETH', decimals: 18, from: 'a', to: 'b', usd_value: 33_000 };
    expect(legAmount({ ...leg, amount: '10000000000000000000' })).toBe('10 ETH');
    expect(legAmount({ ...leg, amount: '250000000000000000' })).toBe('0.25 ETH');
    expect(legAmount({ ...leg, symbol: 'USDC', decimals: 6, amount: '123456789012345678901' })).toBe('123456789012345.678901 USDC');
    expect(legAmount({ ...leg, kind: 'token', symbol: null, decimals: null, amount: '42' })).toBe('42 base units of unknown token');
  });

  it('reads a result recorded before the evidence fields, and refuses one without what the pages show', () => {
    const old = {
      check_id: 'c',
      chain: 'ETH',
      tx_hash: '0x1',
      checked_at: '2026-01-01T00:00:00Z',
      transaction: { block_number: 1, block_time: '2026-01-01T00:00:00Z', success: true, signer: '0xs', to: '0xr' },
      composite_result: {
        total_usd: 1,
        pricing: 'full',
        risk_score: 0,
        risk_level: 'none',
        unknown_share: 100,
        prices: [],
        legs_total: 0,
        legs: [],
        senders: [sender()], // no risk_score, risk_level, usd_value or paths: a check run before they were recorded
        senders_total: 1,
        categories: [],
      },
      policy_result: {
        policy: 'standard',
        version: 'v',
        taxonomy_version: 't',
        worst_level: null,
        recommended_action: 'accept',
        alerts: [],
        explanations: [],
      },
    };
    const read = readTransferResult(old)!;
    expect(read.composite_result.senders[0]?.risk_level).toBeUndefined();
    expect(transferVersions(read).value).toContain('not recorded with this check');
    expect(transferVersions(read).value).toContain('was not recorded (it was made before verdicts stated it)');
    expect(readTransferResult({ check_id: 'c', policy_result: { alerts: [] } })).toBeNull();

    // a check that recorded its coverage names the lists, the sources behind the exposure and the transfer data
    const recorded = readTransferResult({
      ...old,
      coverage: {
        sanctions: {
          as_of: '2026-01-01T00:00:00Z',
          checked: ['US'],
          not_checked: ['UK', 'EU'],
          lists: [
            {
              jurisdiction: 'US',
              source: 'ofac_sdn',
              name: 'OFAC SDN List',
              version: '2025-12-30',
              list_date: '2025-12-30',
              age_days: 2,
              imported_at: '2025-12-31T00:00:00Z',
              content_hash: 'sha256:1',
            },
          ],
        },
        data_versions: {
          taxonomy: 't',
          snapshot: 'sha256:2',
          sources: [{ source: 'ofac_sdn', version: '2025-12-30', content_hash: 'sha256:1', imported_at: '2025-12-31T00:00:00Z' }],
          transfer_data: [
            {
              name: 'rpc:ETH',
              kind: 'ingested_blocks',
              transfers: 9,
              version: '0-4',
              as_of: '2026-01-01T00:00:00Z',
              up_to_block: 4,
              cap: null,
            },
          ],
        },
      },
    })!;
    const shown = transferVersions(recorded).value;
    expect(shown).toContain('Checked against the US sanctions lists: OFAC SDN List of 2025-12-30, 2 days old.');
    expect(shown).toContain('Not checked against the UK and EU sanctions lists');
    expect(shown).toContain('ofac_sdn 2025-12-30 (imported 2025-12-31)');
    expect(shown).toContain('rpc:ETH, blocks up to 4, as of 2026-01-01');
  });
});
