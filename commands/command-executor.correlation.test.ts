import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ledgerDecider, type LedgerCommand } from '../domain/ledger/ledger.decider.js';
import { ledgerStream } from '../domain/ledger/ledger.events.js';
import type { RecordedEvent } from '../domain/ports/event-store.port.js';
import { openLmdbEventStore } from '../infra/embedded/lmdb-event-store.js';
import { createAsyncCorrelation } from '../infra/system/async-correlation.js';
import { systemClock } from '../infra/system/system-clock.js';
import { uuidIds } from '../infra/system/uuid-ids.js';
import { createCommandExecutor } from './command-executor.js';

/** Which correlation the executor stamps on appended events: its own, the caller's scope, or the command id. */

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function setup() {
  const dir = await mkdtemp(join(tmpdir(), 'executor-correlation-'));
  dirs.push(dir);
  const store = await openLmdbEventStore(dir, { fsync: false });
  const correlation = createAsyncCorrelation();
  const executor = createCommandExecutor({ store, clock: systemClock, ids: uuidIds, correlation });
  const events = async (stream: string) => {
    const out: RecordedEvent[] = [];
    for await (const e of store.read(stream)) out.push(e);
    return out;
  };
  return { store, correlation, executor, events };
}

const deposit = (n: number): LedgerCommand => ({
  type: 'Deposit',
  depositId: `d${n}`,
  amountMicros: 1_000_000 * n,
  at: new Date().toISOString(),
});

describe('command executor: correlation of appended events', () => {
  it("each command of one batch keeps the correlation of the flow that called execute, and the scope's causation", async () => {
    const { store, correlation, executor, events } = await setup();
    const stream = ledgerStream('u-1');
    // Four callers race on one stream: all but the first share a batch (one append).
    await Promise.all([
      correlation.run({ correlationId: 'req-a' }, () => executor.execute(stream, ledgerDecider, deposit(1), { commandId: 'c1' })),
      correlation.run({ correlationId: 'req-b', causationId: 'event-9' }, () =>
        executor.execute(stream, ledgerDecider, deposit(2), { commandId: 'c2' }),
      ),
      correlation.run({ correlationId: 'req-c' }, () =>
        executor.execute(stream, ledgerDecider, deposit(3), { commandId: 'c3', correlationId: 'own', causationId: 'own-cause' }),
      ),
      executor.execute(stream, ledgerDecider, deposit(4), { commandId: 'c4' }),
    ]);
    const recorded = await events(stream);
    expect(recorded.map((e) => [e.metadata.correlationId, e.metadata.causationId])).toEqual([
      ['req-a', undefined],
      ['req-b', 'event-9'],
      ['own', 'own-cause'],
      ['c4', undefined],
    ]);
    await store.close();
  });
});
