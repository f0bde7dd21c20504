import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferCheckDecider } from '../../domain/kyt/transfer-check.decider.js';
import { transferCheckStream } from '../../domain/kyt/transfer-check.events.js';
import type { Clock } from '../../domain/ports/clock.port.js';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import { openLmdbEventStore } from '../../infra/embedded/lmdb-event-store.js';
import { cryptoRandom } from '../../infra/system/crypto-random.js';
import { uuidIds } from '../../infra/system/uuid-ids.js';
import { createPipelineReaper } from '../../processors/pipeline-reaper.js';
import { createRunningJobsIndex } from '../../projections/running-jobs.index.js';
import { createCommandExecutor } from '../command-executor.js';
import type { CommandDeps } from '../command-deps.js';
import { requestTransferCheck } from './transfer-check.commands.js';

/**
 * A transfer check whose pipeline never answers is failed by the stuck-job reaper at 15 minutes
 * (failed_timeout), not before, and only once — with a clock the test moves, over the real event store.
 */
const MINUTE = 60_000;
const T0 = Date.parse('2026-11-20T10:00:00.000Z');
let now = T0;
const clock: Clock = { now: () => new Date(now) };
let dir: string;
let store: EventStore;
let deps: CommandDeps;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'transfer-reaper-'));
  store = await openLmdbEventStore(dir, { fsync: false });
  deps = { executor: createCommandExecutor({ store, clock, ids: uuidIds }), clock, ids: uuidIds, random: cryptoRandom, bootId: 'test' };
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the reaper and transfer checks', () => {
  it('fails a transfer check still running after 15 minutes, and only then, once', async () => {
    const checkId = uuidIds.newId();
    const decoder = { chains: () => ['ETH' as const], decode: () => Promise.reject(new Error('never called')) };
    await requestTransferCheck(
      { ...deps, decoder },
      {
        checkId,
        chain: 'ETH',
        txHash: `0x${'7'.repeat(64)}`,
        requester: { channel: 'x402', payer: null },
      },
    );
    const index = createRunningJobsIndex();
    for await (const event of store.read(transferCheckStream(checkId))) index.apply(event);
    expect(index.running()).toEqual([{ kind: 'transfer_check', id: checkId, requestedAt: new Date(T0).toISOString() }]);

    const reaper = createPipelineReaper({ commands: deps, running: () => index.running(), intervalMs: MINUTE });
    now = T0 + 14 * MINUTE;
    expect(await reaper.sweep()).toBe(0);
    now = T0 + 15 * MINUTE;
    expect(await reaper.sweep()).toBe(1);
    const { state, revision } = await deps.executor.load(transferCheckStream(checkId), transferCheckDecider);
    expect(state.status).toBe('failed_timeout');
    await reaper.sweep();
    expect((await deps.executor.load(transferCheckStream(checkId), transferCheckDecider)).revision).toBe(revision);
    for await (const event of store.read(transferCheckStream(checkId))) index.apply(event);
    expect(index.running()).toEqual([]);
  });
});
