import { describe, it } from 'vitest';
import { madeUpEvmAddress, madeUpTronAddress } from '../../test/helpers/made-up-addresses.js';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { curationDecider, type CurationCommand } from './curation.decider.js';
import type { CurationEvent, CuratorEntry } from './curation.events.js';

const entry: CuratorEntry = {
  entryId: 'c-1',
  address: madeUpEvmAddress('curated-drainer').toLowerCase(),
  network: 'ETH',
  kind: 'risk',
  category: 'malware',
  label: 'Example drainer',
  confidence: 90,
  evidenceUrl: 'https://example.org/incident-report',
  curator: 'analyst@example.test',
  addedAt: '2026-11-22T10:00:00Z',
};
const add = (overrides: Partial<CuratorEntry> = {}): CurationCommand => ({ type: 'AddCuratorEntry', ...entry, ...overrides });
const retract: CurationCommand = {
  type: 'RetractCuratorEntry',
  entryId: 'c-1',
  reason: 'false positive',
  curator: 'lead@example.test',
  retractedAt: '2026-11-23T09:00:00Z',
};
const added: CurationEvent = { type: 'CuratorEntryAdded', data: entry };
const retracted: CurationEvent = {
  type: 'CuratorEntryRetracted',
  data: { entryId: 'c-1', reason: 'false positive', curator: 'lead@example.test', retractedAt: '2026-11-23T09:00:00Z' },
};
const spec = deciderSpec(curationDecider);

describe('curated entries', () => {
  it('an entry with evidence is added once; adding it again changes nothing', () => {
    spec.given([]).when(add()).then([added]);
    spec.given([added]).when(add()).thenNothingHappened();
  });

  it('a TRON identity keeps its address case', () => {
    const address = madeUpTronAddress('curated-exchange');
    const identity = add({ address, network: 'TRON', kind: 'identity', category: 'exchange', label: 'ExampleX' });
    spec
      .given([])
      .when(identity)
      .thenMatches((events) => {
        if (events[0]?.type !== 'CuratorEntryAdded' || events[0].data.address !== address) throw new Error('case changed');
      });
  });

  it('refuses what cannot be checked: a malformed address, an unknown category, an evidence that is no URL, an unnamed identity', () => {
    spec
      .given([])
      .when(add({ address: '0x1234' }))
      .thenThrows('bad_request');
    spec
      .given([])
      .when(add({ network: 'TRON' }))
      .thenThrows('bad_request');
    spec
      .given([])
      .when(add({ category: 'suspicious_vibes' }))
      .thenThrows('bad_request');
    spec
      .given([])
      .when(add({ evidenceUrl: 'ftp://example.org/x' }))
      .thenThrows('bad_request');
    spec
      .given([])
      .when(add({ kind: 'identity', category: 'exchange', label: null }))
      .thenThrows('bad_request');
  });

  it('an entry is retracted once; retracting what was never added is refused', () => {
    spec.given([added]).when(retract).then([retracted]);
    spec.given([added, retracted]).when(retract).thenNothingHappened();
    spec.given([]).when(retract).thenThrows('not_found');
  });
});
