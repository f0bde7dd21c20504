import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCommandExecutor } from '../commands/command-executor.js';
import type { TransferCheckDeps } from '../commands/kyt/transfer-check-deps.js';
import { requestTransferCheck } from '../commands/kyt/transfer-check.commands.js';
import type { DecodedTransaction } from '../domain/kyt/decoded-transaction.js';
import { transferCheckDecider } from '../domain/kyt/transfer-check.decider.js';
import { transferCheckStream } from '../domain/kyt/transfer-check.events.js';
import type { EventStore } from '../domain/ports/event-store.port.js';
import type { MessageBus } from '../domain/ports/message-bus.port.js';
import { openLmdbEventStore, type LmdbEventStore } from '../infra/embedded/lmdb-event-store.js';
import { openLogMessageBus } from '../infra/embedded/log-bus/log-message-bus.js';
import { createSnapshotPrices } from '../infra/prices/snapshot-prices.js';
import { cryptoRandom } from '../infra/system/crypto-random.js';
import { systemClock } from '../infra/system/system-clock.js';
import { uuidIds } from '../infra/system/uuid-ids.js';
import { madeUpEvmAddress } from '../test/helpers/made-up-addresses.js';
import { fixtureIntel } from '../test/support/intel-fixtures.js';
import { createProcessorRunner } from './processor-runner.js';
import { toBusMessage } from './relay.js';
import { topicOfStream } from './topics.js';
import { transferCheckProcessor } from './transfer-check.processor.js';
import { testReceipts } from '../test/support/receipt-signer.js';

/**
 * Head-of-line blocking: one transaction whose node lookup hangs must delay only its own check. A
 * chain-data double holds the lookup of one tx hash; the other checks, requested with it on the same
 * bus partition (one partition: the worst case), must finish in about their own time.
 */
const HELD = `0x${'de'.repeat(32)}`;
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const FROM = madeUpEvmAddress('hol:from').toLowerCase();
const TO = madeUpEvmAddress('hol:to').toLowerCase();
const tx = (txHash: string): DecodedTransaction => ({
  chain: 'ETH',
  txHash,
  blockNumber: 20_000_000,
  blockTime: '2024-06-15T12:00:00.000Z',
  success: true,
  signer: FROM,
  to: TO,
  legs: [{ kind: 'native', token: null, symbol: 'ETH', decimals: 18, from: FROM, to: TO, amount: (10n ** 18n).toString(), logIndex: null }],
});

let dir: string;
let store: EventStore;
/** The bus's own log: the test relays the requests onto it itself, all in one go (as Kafka's relay would). */
let busStore: LmdbEventStore;
let bus: MessageBus;
let release: () => void;
let deps: TransferCheckDeps;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'transfer-hol-'));
  store = await openLmdbEventStore(join(dir, 'log'), { fsync: false });
  busStore = await openLmdbEventStore(join(dir, 'bus'), { fsync: false });
  bus = openLogMessageBus({ store: busStore, checkpoints: busStore.checkpoints });
  const held = new Promise<void>((resolve) => (release = resolve));
  deps = {
    receipts: await testReceipts(),
    executor: createCommandExecutor({ store, clock: systemClock, ids: uuidIds }),
    clock: systemClock,
    ids: uuidIds,
    random: cryptoRandom,
    bootId: 'test',
    intel: fixtureIntel([]),
    decoder: {
      chains: () => ['ETH'],
      decode: async (_chain, txHash) => {
        if (txHash === HELD) await held;
        else await new Promise((resolve) => setTimeout(resolve, 20)); // an ordinary node answer
        return tx(txHash);
      },
    },
    prices: createSnapshotPrices(),
    transfers: null,
    monotonicNow: () => performance.now(),
  };
});
afterEach(async () => {
  release();
  await bus.close();
  await busStore.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** Requests the checks (held first) and relays their requests to the bus in one go, as the relay would. */
async function requestAll(checkIds: { id: string; hash: string }[]) {
  for (const { id, hash } of checkIds) {
    await requestTransferCheck(deps, { checkId: id, chain: 'ETH', txHash: hash, requester: { channel: 'x402', payer: null } });
  }
  for await (const event of store.readAll()) await bus.publish(topicOfStream(event.streamId), [toBusMessage(event)]);
}

const statusOf = async (checkId: string) => (await deps.executor.load(transferCheckStream(checkId), transferCheckDecider)).state.status;

async function finishedWithin(checkIds: string[], ms: number): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const statuses = await Promise.all(checkIds.map(statusOf));
    if (statuses.every((s) => s !== 'running') || Date.now() > deadline) return statuses;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('transfer checks run side by side, each with its own deadline', () => {
  it('a held node lookup delays only its own check: the 8 behind it finish while it is still held', async () => {
    const runner = createProcessorRunner({
      bus,
      processors: [transferCheckProcessor(deps, { concurrency: 16, timeoutMs: 60_000 })],
      context: {},
    });
    const held = { id: uuidIds.newId(), hash: HELD };
    const others = Array.from({ length: 8 }, (_, i) => ({ id: uuidIds.newId(), hash: hashOf(i + 1) }));
    const started = performance.now();
    await runner.start();
    await requestAll([held, ...others]);

    expect(
      await finishedWithin(
        others.map((o) => o.id),
        3_000,
      ),
    ).toEqual(others.map(() => 'completed'));
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(await statusOf(held.id)).toBe('running');
    release();
    await runner.whenCaughtUp();
    expect(await statusOf(held.id)).toBe('completed');
    await runner.stop();
  });

  it('a lookup that never answers fails its check at its deadline (backend_unavailable), the others unaffected', async () => {
    const runner = createProcessorRunner({
      bus,
      processors: [transferCheckProcessor(deps, { concurrency: 4, timeoutMs: 300 })],
      context: {},
    });
    const held = { id: uuidIds.newId(), hash: HELD };
    const other = { id: uuidIds.newId(), hash: hashOf(99) };
    await runner.start();
    await requestAll([held, other]);
    await runner.whenCaughtUp();
    const { state } = await deps.executor.load(transferCheckStream(held.id), transferCheckDecider);
    expect(state).toMatchObject({
      status: 'failed',
      failure: { code: 'backend_unavailable', message: 'the chain lookups did not finish within 0.3 s' },
    });
    expect(await statusOf(other.id)).toBe('completed');
    await runner.stop();
  });

  it('resume runs again a check a stopped process left in flight (its request no longer on the bus)', async () => {
    const processor = transferCheckProcessor(deps, { concurrency: 4, timeoutMs: 60_000 });
    const orphan = uuidIds.newId();
    await requestTransferCheck(deps, { checkId: orphan, chain: 'ETH', txHash: hashOf(7), requester: { channel: 'x402', payer: null } });
    await processor.resume([orphan]);
    await processor.whenIdle!();
    expect(await statusOf(orphan)).toBe('completed');
  });
});
