import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferCheckDecider } from '../../domain/kyt/transfer-check.decider.js';
import { transferCheckStream } from '../../domain/kyt/transfer-check.events.js';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import { openLmdbEventStore } from '../../infra/embedded/lmdb-event-store.js';
import { cryptoRandom } from '../../infra/system/crypto-random.js';
import { uuidIds } from '../../infra/system/uuid-ids.js';
import { createStreamChanges } from '../../projections/stream-changes.js';
import { manualClock, settle } from '../../test/support/manual-clock.js';
import { createCommandExecutor } from '../command-executor.js';
import type { CommandDeps } from '../command-deps.js';
import { awaitTransferCheck, requestTransferCheck } from './transfer-check.commands.js';
import { transferVerdictFixture } from '../../test/support/transfer-verdict-fixture.js';
import { FIXTURE_COVERAGE } from '../../test/support/intel-fixtures.js';

/**
 * The synchronous wait of a transfer check (25 s on V2, 30 s on x402), driven by a clock the test moves
 * and by the stream wakes the projection runner feeds (here: the test, from the real event store).
 */
let dir: string;
let store: EventStore;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'await-transfer-'));
  store = await openLmdbEventStore(dir, { fsync: false });
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function runningCheck() {
  const clock = manualClock('2026-11-20T10:00:00.000Z');
  const changes = createStreamChanges(['TransferCheckCompleted']);
  const deps: CommandDeps = {
    executor: createCommandExecutor({ store, clock, ids: uuidIds }),
    clock,
    ids: uuidIds,
    random: cryptoRandom,
    bootId: 'test',
    changes,
  };
  const checkId = uuidIds.newId();
  const decoder = { chains: () => ['ETH' as const], decode: () => Promise.reject(new Error('never called')) };
  await requestTransferCheck(
    { ...deps, decoder },
    { checkId, chain: 'ETH', txHash: `0x${'8'.repeat(64)}`, requester: { channel: 'x402', payer: null } },
  );
  return { clock, changes, deps, checkId };
}

describe('awaitTransferCheck', () => {
  it('given a running check, when the pipeline completes it, then the wait answers at once, woken by the stream', async () => {
    const { clock, changes, deps, checkId } = await runningCheck();
    let status: string | undefined;
    void awaitTransferCheck(deps, checkId, 25_000).then((state) => (status = state.status));
    await settle();
    expect(status).toBeUndefined();
    await deps.executor.execute(
      transferCheckStream(checkId),
      transferCheckDecider,
      {
        type: 'CompleteTransferCheck',
        verdict: transferVerdictFixture({ checkId }),
        alerts: [],
        sanctions: FIXTURE_COVERAGE,
        at: clock.now().toISOString(),
      },
      { commandId: 'complete' },
    );
    changes.apply({ streamId: transferCheckStream(checkId) });
    await settle();
    expect(status).toBe('completed');
    expect(changes.waiting()).toBe(0);
    expect(clock.pending()).toBe(0);
  });

  it('given a check that never finishes, when 25 s pass on the clock, then the wait answers running', async () => {
    const { clock, changes, deps, checkId } = await runningCheck();
    let status: string | undefined;
    void awaitTransferCheck(deps, checkId, 25_000).then((state) => (status = state.status));
    await clock.advance(24_999);
    expect(status).toBeUndefined();
    await clock.advance(1);
    expect(status).toBe('running');
    expect(changes.waiting()).toBe(0);
  });
});
