import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectDecider } from '../../domain/inspect/inspect.decider.js';
import { inspectStream } from '../../domain/inspect/inspect.events.js';
import { ledgerStream } from '../../domain/ledger/ledger.events.js';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import { isServiceError } from '../../domain/shared/errors.js';
import { openLmdbEventStore } from '../../infra/embedded/lmdb-event-store.js';
import { cryptoRandom } from '../../infra/system/crypto-random.js';
import { uuidIds } from '../../infra/system/uuid-ids.js';
import { createCommandExecutor } from '../command-executor.js';
import type { CommandDeps } from '../command-deps.js';
import { deliverInspect } from './deliver-inspect.js';
import { testReceipts } from '../../test/support/receipt-signer.js';
import type { VerdictSigner } from '../../domain/ports/verdict-signer.port.js';

/** The lazy reaper: an inspect still running 15 minutes after its request fails at its next reading. */
let dir: string;
let store: EventStore;
afterAll(async () => {
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('delivering an inspect that never finished', () => {
  it('202 before the 15-minute cap; failed_timeout (502, nothing charged) from then on', async () => {
    dir = await mkdtemp(join(tmpdir(), 'deliver-inspect-'));
    store = await openLmdbEventStore(dir, { fsync: false });
    const clock = { t: Date.parse('2026-05-12T10:00:00.000Z'), now: () => new Date(clock.t) };
    const deps: CommandDeps & { receipts: VerdictSigner } = {
      receipts: await testReceipts(),
      executor: createCommandExecutor({ store, clock, ids: uuidIds }),
      clock,
      ids: uuidIds,
      random: cryptoRandom,
      bootId: 'b',
    };
    const checkId = uuidIds.newId();
    await deps.executor.execute(
      inspectStream(checkId),
      inspectDecider,
      {
        type: 'RequestInspect',
        checkId,
        userId: 'u1',
        keyId: 'k1',
        address: '0x' + '12'.repeat(20),
        network: 'ETH',
        requestHash: 'h',
        providers: [{ name: 'service', kind: 'own_engine' }],
        waived: [],
        skipped: [],
        at: clock.now().toISOString(),
      },
      { commandId: `request-inspect:${checkId}` },
    );
    clock.t += 15 * 60 * 1000 - 1;
    expect((await deliverInspect(deps, { userId: 'u1', checkId })).kind).toBe('running');
    clock.t += 1;
    for (let read = 0; read < 2; read++) {
      const error = await deliverInspect(deps, { userId: 'u1', checkId }).catch((e: unknown) => e);
      expect(isServiceError(error) && error.code).toBe('backend_unavailable');
      expect(String((error as Error).message)).toContain('failed_timeout');
    }
    const types: string[] = [];
    for await (const e of store.read(inspectStream(checkId))) types.push(e.type);
    expect(types).toEqual(['InspectRequested', 'InspectTimedOut']);
    expect(await store.streamRevision(ledgerStream('u1'))).toBe(-1n);
  });
});
