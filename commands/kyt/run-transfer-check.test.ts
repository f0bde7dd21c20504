import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecodedTransaction, TransferLeg } from '../../domain/kyt/decoded-transaction.js';
import { transferCheckDecider } from '../../domain/kyt/transfer-check.decider.js';
import { transferCheckStream } from '../../domain/kyt/transfer-check.events.js';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import type { TransactionDecoder } from '../../domain/ports/transaction-decoder.port.js';
import { fail } from '../../domain/shared/errors.js';
import { openLmdbEventStore } from '../../infra/embedded/lmdb-event-store.js';
import { createSnapshotPrices } from '../../infra/prices/snapshot-prices.js';
import { cryptoRandom } from '../../infra/system/crypto-random.js';
import { systemClock } from '../../infra/system/system-clock.js';
import { uuidIds } from '../../infra/system/uuid-ids.js';
import { madeUpEvmAddress } from '../../test/helpers/made-up-addresses.js';
import { fixtureIntel } from '../../test/support/intel-fixtures.js';
import { edge, fixtureIndex } from '../../test/support/transfer-fixtures.js';
import { createCommandExecutor } from '../command-executor.js';
import { runTransferCheck } from './run-transfer-check.js';
import type { TransferCheckDeps } from './transfer-check-deps.js';
import { requestTransferCheck } from './transfer-check.commands.js';
import { present } from '../../domain/shared/present.js';
import { testReceipts } from '../../test/support/receipt-signer.js';

/**
 * The pipeline over the real executor, file event store, intelligence and transfer-index code, with the
 * chain itself as a fixed decoded transaction (the decoders have their own tests): direct exposure from
 * the intelligence index, indirect exposure from the full check's graph search, USD from the snapshot.
 *
 *   r (stolen funds) →20 000 USD→ a ←20 000 USD← x (exchange);   a and s (sanctioned) send in one transaction
 */
const party = (name: string) => madeUpEvmAddress(`run-transfer-check:${name}`).toLowerCase();
const [A, S, R, X, TO] = ['a', 's', 'r', 'x', 'to'].map(party) as [string, string, string, string, string];
const ETH_ON_DAY = 3500; // the snapshot's ETH level for 2024-06

const ether = (n: number) => (BigInt(n) * 10n ** 18n).toString();
const leg = (from: string, eth: number): TransferLeg => ({
  kind: 'native',
  token: null,
  symbol: 'ETH',
  decimals: 18,
  from,
  to: TO,
  amount: ether(eth),
  logIndex: null,
});
const TX: DecodedTransaction = {
  chain: 'ETH',
  txHash: `0x${'5'.repeat(64)}`,
  blockNumber: 20_000_000,
  blockTime: '2024-06-15T12:00:00.000Z',
  success: true,
  signer: A,
  to: TO,
  legs: [leg(A, 20), leg(S, 1)],
};

let dir: string;
let store: EventStore;
let deps: TransferCheckDeps;
let decode: (chain: string, hash: string) => Promise<DecodedTransaction>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'run-transfer-check-'));
  store = await openLmdbEventStore(dir, { fsync: false });
  const decoder: TransactionDecoder = { chains: () => ['ETH'], decode: (chain, hash) => decode(chain, hash) };
  deps = {
    receipts: await testReceipts(),
    executor: createCommandExecutor({ store, clock: systemClock, ids: uuidIds }),
    clock: systemClock,
    ids: uuidIds,
    random: cryptoRandom,
    bootId: 'test',
    intel: fixtureIntel([
      { address: S, kind: 'sanction', entity: 'Example Sanctioned Entity' },
      { address: R, kind: 'risk', category: 'stolen_funds', label: 'Example Exploit' },
      { address: X, kind: 'identity', category: 'exchange', label: 'Example Exchange' },
    ]),
    decoder,
    prices: createSnapshotPrices(),
    transfers: await fixtureIndex([edge(R, A, 20_000), edge(X, A, 20_000)]),
    monotonicNow: () => performance.now(),
  };
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function checked(checkId: string) {
  await requestTransferCheck(deps, {
    checkId,
    chain: 'ETH',
    txHash: TX.txHash,
    requester: { channel: 'v2', userId: 'user-1', keyId: 'key-1', subgroupId: 'subgroup-1' },
  });
  await runTransferCheck(deps, checkId);
  return (await deps.executor.load(transferCheckStream(checkId), transferCheckDecider)).state;
}

describe('transfer check pipeline', () => {
  it('weighs direct and indirect exposure of each sender in USD and raises the policy alerts', async () => {
    decode = async () => TX;
    const state = await checked(uuidIds.newId());
    expect(state.status).toBe('completed');
    const verdict = present(state.verdict, "a completed check's verdict");
    expect(verdict.composite.totalUsdMicros).toBe(21 * ETH_ON_DAY * 1_000_000);
    const sender = verdict.composite.senders.find((s) => s.address === A);
    // a's own verdict: half its inflow from an exploit (severity 8 × 50 %), the route drawn from the exploit to a
    expect(sender).toMatchObject({
      graph: 'analysed',
      dataAvailable: false,
      riskScore: 4,
      riskLevel: 'medium',
      indirect: expect.arrayContaining([
        {
          slug: 'stolen_funds',
          share: 0.5,
          hops: 1,
          usdMicros: 35_000_000_000,
          paths: [
            {
              hops: 1,
              addresses: [R, A],
              usdMicros: 20_000_000_000,
              share: 0.5,
              label: 'Example Exploit',
              source: expect.any(String),
              usdEstimated: false,
            },
          ],
        },
      ]),
    });
    // each explanation names the senders its alert rests on
    expect(verdict.policy.explanations.map((e) => e.senders)).toEqual([[S], [A]]);
    expect(verdict.policy.alerts).toEqual([
      expect.objectContaining({
        riskLevel: 'Severe',
        ruleType: 'Direct exposure',
        category: 'Sanctioned entity / address',
        actualShare: 4.76,
        entityName: 'Example Sanctioned Entity',
        entityAddress: S,
      }),
      // 50 % of a's 70 000 USD traced to the exploit: 35 000 USD, 47.62 % of the composite (rule I2: 5 % and 20 000 USD).
      expect.objectContaining({
        riskLevel: 'High',
        ruleType: 'Origin of funds / Indirect',
        category: 'Hack / exploit / theft proceeds',
        actualShare: 47.62,
        thresholdShare: 5,
        thresholdValue: 20_000,
        entityName: `Sender ${A} (exposed to Hack / exploit / theft proceeds)`,
        entityAddress: A,
      }),
    ]);
    // Exchanges are services, not risk: their share is shown, no rule fires on it.
    expect(verdict.composite.categories.map((c) => c.slug)).toEqual(['sanctions', 'stolen_funds', 'exchange']);
  });

  it('runs once: a redelivered request finds the outcome and decides nothing', async () => {
    decode = async () => TX;
    const checkId = uuidIds.newId();
    await checked(checkId);
    const before = (await deps.executor.load(transferCheckStream(checkId), transferCheckDecider)).revision;
    await runTransferCheck(deps, checkId);
    expect((await deps.executor.load(transferCheckStream(checkId), transferCheckDecider)).revision).toBe(before);
  });

  it('traces the 20 largest senders only; the rest keep their direct exposure and say skipped', async () => {
    const many = Array.from({ length: 25 }, (_, i) => leg(party(`many-${i}`), i + 1));
    decode = async () => ({ ...TX, legs: many });
    const state = await checked(uuidIds.newId());
    const composite = present(state.verdict, "a completed check's verdict").composite;
    expect(composite).toMatchObject({ legsTotal: 25, sendersTotal: 25 });
    expect(composite.senders.slice(0, 20).every((s) => s.graph === 'no_history')).toBe(true);
    expect(composite.senders.slice(20).map((s) => [s.usdMicros, s.graph])).toEqual(
      [5, 4, 3, 2, 1].map((eth) => [eth * ETH_ON_DAY * 1_000_000, 'skipped']),
    );
  });

  it('a decoder failure fails the check with its code; anything unexpected is internal_error', async () => {
    decode = async () => {
      throw fail('tx_not_found', 'no such transaction');
    };
    expect(await checked(uuidIds.newId())).toMatchObject({ status: 'failed', failure: { code: 'tx_not_found' } });
    decode = async () => {
      throw new TypeError('bug');
    };
    expect(await checked(uuidIds.newId())).toMatchObject({ status: 'failed', failure: { code: 'internal_error' } });
  });
});
