import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deliverAddressCheckResult, requestAddressCheck } from '../../commands/address-check.commands.js';
import type { CommandDeps } from '../../commands/command-deps.js';
import { createCommandExecutor } from '../../commands/command-executor.js';
import type { TransferIndex } from '../../domain/ports/chain-data.port.js';
import type { EventStore, RecordedEvent } from '../../domain/ports/event-store.port.js';
import { hasCode } from '../../domain/shared/errors.js';
import { openLmdbEventStore } from '../../infra/embedded/lmdb-event-store.js';
import { cryptoRandom } from '../../infra/system/crypto-random.js';
import { systemClock } from '../../infra/system/system-clock.js';
import { uuidIds } from '../../infra/system/uuid-ids.js';
import { TEST_BUDGET } from '../../test/support/check-fixtures.js';
import { fixtureIntel } from '../../test/support/intel-fixtures.js';
import { edge, fixtureIndex } from '../../test/support/transfer-fixtures.js';
import type { BusEvent, Processor } from '../processor.js';
import { toBusMessage } from '../relay.js';
import { createAddressCheckProcessors } from './address-check.processors.js';
import { testReceipts } from '../../test/support/receipt-signer.js';
import type { VerdictSigner } from '../../domain/ports/verdict-signer.port.js';

/**
 * The pipeline's processors over the real file event store, fed the log as the bus would feed them
 * (at least once): a tier that keeps failing fails the check after its attempts; redelivering
 * everything, or running the same step twice at once, never records a second outcome.
 */

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function setup(transfers: TransferIndex) {
  const dir = await mkdtemp(join(tmpdir(), 'check-processors-'));
  const store = await openLmdbEventStore(dir, { fsync: false });
  cleanup.push(
    () => rm(dir, { recursive: true, force: true }),
    () => store.close(),
  );
  const commands: CommandDeps & { receipts: VerdictSigner } = {
    receipts: await testReceipts(),
    executor: createCommandExecutor({ store, clock: systemClock, ids: uuidIds }),
    clock: systemClock,
    ids: uuidIds,
    random: cryptoRandom,
    bootId: 'test',
  };
  const intel = fixtureIntel([{ address: 'r', kind: 'risk', category: 'stolen_funds' }]);
  const processors = createAddressCheckProcessors({ intel, clock: systemClock, transfers, now: () => performance.now() });
  return { store, commands, processors };
}

async function history(store: EventStore): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for await (const event of store.readAll()) events.push(event);
  return events;
}

function asBusEvent(event: RecordedEvent, attempt = 1): BusEvent {
  const message = { ...toBusMessage(event), topic: 'events.check', partition: 0, offset: event.position.commit, attempt };
  return {
    id: event.id,
    type: event.type,
    streamId: event.streamId,
    revision: event.revision,
    data: event.data,
    metadata: { ...event.metadata },
    message,
  };
}

/** Hands every processor each new event (in log order) until the log stops growing, like the bus would. */
async function drive(store: EventStore, processors: readonly Processor<CommandDeps>[], commands: CommandDeps): Promise<void> {
  let seen = 0;
  for (let round = 0; round < 50; round++) {
    const events = await history(store);
    if (events.length === seen) return;
    const fresh = events.slice(seen).map((e) => asBusEvent(e));
    seen = events.length;
    for (const processor of processors) await processor.handle(fresh, commands);
  }
  throw new Error('the pipeline did not settle');
}

const typesOf = async (store: EventStore, checkId: string) => {
  const types: string[] = [];
  for await (const event of store.read(`check-${checkId}`)) types.push(event.type);
  return types;
};

const owner = { channel: 'v2' as const, ownerId: 'user-1', keyId: 'key-1' };
const GRAPH = [edge('r', 'a', 100), edge('a', 'd', 100), edge('d', 'x', 50)];

describe('the full-check processors', () => {
  it('complete a check with one outcome per tier, and redelivering everything changes nothing', async () => {
    const { store, commands, processors } = await setup(await fixtureIndex(GRAPH));
    await requestAddressCheck(commands, { checkId: 'c1', owner, address: 'd', network: 'ETH', budget: TEST_BUDGET });
    await drive(store, processors, commands);
    const types = await typesOf(store, 'c1');
    expect(types.filter((t) => t === 'TierCompleted')).toHaveLength(5);
    expect(types.filter((t) => t === 'CheckCompleted')).toHaveLength(1);

    const everything = (await history(store)).map((e) => asBusEvent(e, 2));
    for (const processor of processors) await processor.handle(everything, commands);
    expect(await typesOf(store, 'c1')).toEqual(types);
  });

  it('record each tier once when the same step runs twice at the same time', async () => {
    const { store, commands, processors } = await setup(await fixtureIndex(GRAPH));
    await requestAddressCheck(commands, { checkId: 'c2', owner, address: 'd', network: 'ETH', budget: TEST_BUDGET });
    const requested = (await history(store)).map((e) => asBusEvent(e));
    await Promise.all(processors.flatMap((p) => [p.handle(requested, commands), p.handle(requested, commands)]));
    await drive(store, processors, commands);
    const types = await typesOf(store, 'c2');
    expect(types.filter((t) => t === 'TierCompleted')).toHaveLength(5);
    expect(types.filter((t) => t === 'CheckCompleted')).toHaveLength(1);
  });

  it('fail the check after a tier failed its last attempt; the result is a 502 and nothing is charged', async () => {
    const healthy = await fixtureIndex(GRAPH);
    const broken: TransferIndex = {
      activity: (...args) => healthy.activity(...args),
      coverage: (...args) => healthy.coverage(...args),
      flows: async () => {
        throw new Error('upstream RPC unreachable');
      },
    };
    const { store, commands, processors } = await setup(broken);
    await requestAddressCheck(commands, { checkId: 'c3', owner, address: 'd', network: 'ETH', budget: TEST_BUDGET });
    await drive(store, processors, commands);
    const types = await typesOf(store, 'c3');
    expect(types).toContain('CheckFailed');
    expect(types).not.toContain('CheckCompleted');
    expect(types.filter((t) => t === 'CheckFailed')).toHaveLength(1);
    expect(types.filter((t) => t === 'TierAttemptFailed').length).toBeGreaterThanOrEqual(3);
    const delivered = await deliverAddressCheckResult(commands, { checkId: 'c3', userId: 'user-1', keyId: 'key-1' }).catch(
      (error: unknown) => error,
    );
    expect(hasCode(delivered, 'check_failed')).toBe(true);
    expect((delivered as { details: unknown }).details).toMatchObject({ check_id: 'c3', status: 'failed' });
  });
});
