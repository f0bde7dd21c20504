import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createIntelIndex, type IntelIndexProjection } from './intel-index.js';
import { decideDataset, initialDatasetState } from '../domain/intel/dataset.decider.js';
import type { Claim, SourceDescriptor } from '../domain/intel/intel.types.js';
import { buildScreenVerdict } from '../domain/intel/screen-verdict.js';
import type { Network } from '../domain/shared/network.js';
import { changedAddresses } from '../domain/monitors/claim-diff.js';
import { decideMonitor, evolveMonitor, initialMonitorState } from '../domain/monitors/monitor.decider.js';
import { monitorVerdictOf, verdictChanged } from '../domain/monitors/monitor-verdict.js';
import { checkedIntelOf, FIXTURE_COVERAGE } from '../test/support/intel-fixtures.js';

/**
 * The re-evaluation's contract as a property: after an import, the monitors notified (selected through
 * the claim diff of the two versions, then judged by the decider) are exactly the monitors whose verdict
 * differs between the index before and the index after, whatever the claims, the other sources and the
 * monitored set.
 */
const ADDRESSES = Array.from({ length: 6 }, (_, i) => `0x${String(i + 1).padStart(40, '0')}`);
const CATEGORIES = ['mixer', 'scam', 'gambling', 'exchange', 'atm'];
const AT = '2026-05-01T00:00:00.000Z';
const descriptor = (slug: string, trustWeight: number): SourceDescriptor => ({
  slug,
  class: 'community_feed',
  trustWeight,
  publicName: slug,
  url: `https://example.org/${slug}`,
});
const FEED = descriptor('feed', 60);
const OTHER = descriptor('other', 80);

const claimArb = (source: string) =>
  fc
    .record({
      address: fc.constantFrom(...ADDRESSES),
      kind: fc.constantFrom('risk', 'identity', 'sanction'),
      category: fc.constantFrom(...CATEGORIES),
      label: fc.constantFrom('Alpha', 'Beta', null),
      confidence: fc.integer({ min: 1, max: 100 }),
      scope: fc.constantFrom('evm', 'ETH', 'BSC'),
    })
    .map(({ address, kind, category, label, confidence, scope }): Claim => {
      const base = {
        address,
        scope: scope as Claim['scope'],
        confidence,
        sourceUrl: 'https://example.org/c',
        firstSeenAt: AT,
        lastSeenAt: AT,
        source,
      };
      if (kind === 'sanction') {
        return {
          ...base,
          kind: 'sanction',
          category: 'sanctions',
          label,
          sanction: { list: 'US', entity: label, program: null, listEntryId: null, listDate: '2026-01-01', asset: null },
        };
      }
      return kind === 'identity'
        ? { ...base, kind: 'identity', category, label: label ?? 'Gamma' }
        : { ...base, kind: 'risk', category, label };
    });

function importInto(index: IntelIndexProjection, source: SourceDescriptor, claims: readonly Claim[], contentHash: string): void {
  const command = {
    type: 'ImportDataset' as const,
    source: source.slug,
    version: contentHash,
    contentHash,
    claims,
    tokens: [],
    importedAt: AT,
    descriptor: source,
  };
  for (const event of decideDataset(command, initialDatasetState())) index.apply(event);
}

const verdictIn = (index: IntelIndexProjection, address: string, network: Network) =>
  monitorVerdictOf(buildScreenVerdict(checkedIntelOf(index.lookup(address, network)))).verdict;

describe('monitors notified by an import', () => {
  it('are exactly the monitored addresses whose verdict changed', () => {
    fc.assert(
      fc.property(
        fc.array(claimArb('feed'), { maxLength: 12 }),
        fc.array(claimArb('feed'), { maxLength: 12 }),
        fc.array(claimArb('other'), { maxLength: 8 }),
        fc.uniqueArray(fc.tuple(fc.constantFrom(...ADDRESSES), fc.constantFrom<Network>('ETH', 'BSC')), {
          selector: ([a, n]) => `${n}:${a}`,
          maxLength: 12,
        }),
        (previous, next, other, monitored) => {
          const before = createIntelIndex();
          const after = createIntelIndex();
          for (const index of [before, after]) {
            importInto(index, OTHER, other, 'o1');
            importInto(index, FEED, previous, 'v1');
          }
          importInto(after, FEED, next, 'v2');

          const touched = changedAddresses(previous, next);
          const notified = monitored.filter(([address, network]) => {
            if (!touched.has(address)) return false;
            const created = decideMonitor(
              {
                type: 'Create',
                monitorId: 'm',
                userId: 'u',
                keyId: null,
                address,
                network,
                reference: null,
                verdict: verdictIn(before, address, network),
                dataVersions: { taxonomy: 't', snapshot: null, sources: [] },
                sanctions: FIXTURE_COVERAGE,
                period: AT,
                at: AT,
              },
              initialMonitorState(),
            );
            const state = created.reduce(evolveMonitor, initialMonitorState());
            const reasons = [{ source: 'feed', change: 'dataset_imported' as const, version: 'v2', changedAt: AT }];
            return (
              decideMonitor(
                {
                  type: 'Reevaluate',
                  changeKey: 'dataset:feed:v2',
                  verdict: verdictIn(after, address, network),
                  dataVersions: { taxonomy: 't', snapshot: null, sources: [] },
                  sanctions: FIXTURE_COVERAGE,
                  reasons,
                  at: AT,
                },
                state,
              ).length > 0
            );
          });
          const changed = monitored.filter(([address, network]) =>
            verdictChanged(verdictIn(before, address, network), verdictIn(after, address, network)),
          );
          expect(notified).toEqual(changed);
        },
      ),
      { numRuns: 300 },
    );
  });
});
