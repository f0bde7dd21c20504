import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { microsToUsd } from '../domain/shared/money.js';
import Fastify from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../domain/ports/clock.port.js';
import type { EventStore } from '../domain/ports/event-store.port.js';
import { fail } from '../domain/shared/errors.js';
import { openLmdbEventStore } from '../infra/embedded/lmdb-event-store.js';
import { cryptoRandom } from '../infra/system/crypto-random.js';
import { uuidIds } from '../infra/system/uuid-ids.js';
import { errorHandler } from '../read-api/errors.js';
import { changePlan, chargeCall, deposit, readBalance, refundCall } from './billing.commands.js';
import type { CommandDeps } from './command-deps.js';
import { createCommandExecutor, type ExecutorLimits } from './command-executor.js';

/**
 * State is visible only after it is durable. An outside probe saw GET /v2/balance show 0.90 while a 0.10
 * charge's append was in flight, and 1.00 again once that append failed: the executor folded the batch
 * into its cached state before the append. Here the store's append is held (or fails) on demand.
 */

const dirs: string[] = [];
const stores: EventStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A real file store whose appends can be held until released, or made to fail. */
async function controllableStore() {
  const dir = await mkdtemp(join(tmpdir(), 'executor-durability-'));
  dirs.push(dir);
  const inner = await openLmdbEventStore(dir, { fsync: false });
  stores.push(inner);
  let hold: { entered: () => void; released: Promise<void> } | null = null;
  let failNext = false;
  const store: EventStore = {
    ...inner,
    read: (stream, options) => inner.read(stream, options),
    streamRevision: (stream) => inner.streamRevision(stream),
    readAll: (options) => inner.readAll(options),
    headPosition: () => inner.headPosition(),
    subscribeToAll: (options) => inner.subscribeToAll(options),
    close: () => inner.close(),
    async append(stream, events, options) {
      if (hold) {
        const current = hold;
        hold = null;
        current.entered();
        await current.released;
      }
      if (failNext) {
        failNext = false;
        throw fail('store_closed', 'disk went away');
      }
      return inner.append(stream, events, options);
    },
  };
  return {
    store,
    /** The next append waits for `release()`; `entered` resolves once it is waiting. */
    holdNextAppend() {
      let release!: () => void;
      let entered!: () => void;
      const enteredPromise = new Promise<void>((resolve) => (entered = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      hold = { entered, released };
      return { entered: enteredPromise, release };
    },
    failNextAppend() {
      failNext = true;
    },
  };
}

const clock: Clock = { now: () => new Date('2026-05-12T10:00:00.000Z') };
const details = { endpoint: 'POST /v2/screen', keyId: 'k1', network: 'ethereum', subject: '0xabc' };

function processOn(store: EventStore, limits?: Partial<ExecutorLimits>): CommandDeps {
  return {
    executor: createCommandExecutor({ store, clock, ids: uuidIds, ...(limits ? { limits } : {}) }),
    clock,
    ids: uuidIds,
    random: cryptoRandom,
    bootId: 'boot',
  };
}

async function fundedUser(deps: CommandDeps): Promise<string> {
  const userId = `u-${uuidIds.newId()}`;
  await changePlan(deps, userId, { kind: 'ledger' });
  await deposit(deps, { userId, depositId: 'initial', amountMicros: 1_000_000 });
  return userId;
}

const balanceUsd = async (deps: CommandDeps, userId: string) => {
  const { billing } = await readBalance(deps, userId);
  return billing.model === 'ledger' ? microsToUsd(billing.balanceMicros) : Number.NaN;
};

describe('command executor: state is visible only after it is durable', () => {
  it('a read during a held append shows the balance before the charge, and the charge once it is durable', async () => {
    const { store, holdNextAppend } = await controllableStore();
    const deps = processOn(store);
    const userId = await fundedUser(deps);
    expect(await balanceUsd(deps, userId)).toBe(1);

    const held = holdNextAppend();
    const charging = chargeCall(deps, { userId, chargeId: 'c1', product: 'screen', details });
    await held.entered;
    expect(await balanceUsd(deps, userId), 'balance while the append is in flight').toBe(1);
    held.release();
    await charging;
    expect(await balanceUsd(deps, userId)).toBe(0.9);
  });

  it('a failed append leaves no trace in any read: 1.00 before, during and after', async () => {
    const { store, holdNextAppend, failNextAppend } = await controllableStore();
    const deps = processOn(store);
    const userId = await fundedUser(deps);

    const held = holdNextAppend();
    failNextAppend();
    const charging = chargeCall(deps, { userId, chargeId: 'c1', product: 'screen', details });
    await held.entered;
    expect(await balanceUsd(deps, userId), 'balance while the doomed append is in flight').toBe(1);
    held.release();
    await expect(charging).rejects.toMatchObject({ code: 'store_closed' });
    expect(await balanceUsd(deps, userId)).toBe(1);
    // the same charge goes through afterwards, once
    await chargeCall(deps, { userId, chargeId: 'c1', product: 'screen', details });
    expect(await balanceUsd(deps, userId)).toBe(0.9);
  });
});

describe('command executor: a refund in flight', () => {
  it('changes neither the balance nor the charge it names before its append is durable', async () => {
    const { store, holdNextAppend, failNextAppend } = await controllableStore();
    const deps = processOn(store);
    const userId = await fundedUser(deps);
    await chargeCall(deps, { userId, chargeId: 'c1', product: 'screen', details });
    const held = holdNextAppend();
    failNextAppend();
    const refunding = refundCall(deps, { userId, chargeId: 'c1', reason: 'backend_unavailable' });
    await held.entered;
    const during = (await readBalance(deps, userId)).state;
    expect(during.balanceMicros).toBe(900_000);
    expect(during.charges.get('c1')).toMatchObject({ refundedMicros: 0 });
    held.release();
    await expect(refunding).rejects.toMatchObject({ code: 'store_closed' });
    expect((await readBalance(deps, userId)).state.charges.get('c1')).toMatchObject({ refundedMicros: 0 });
    await refundCall(deps, { userId, chargeId: 'c1', reason: 'backend_unavailable' });
    expect(await balanceUsd(deps, userId)).toBe(1);
  });
});

describe('command executor: bounded queues push back', () => {
  it('refuses with overloaded beyond the commands waiting on one stream, and recovers', async () => {
    const { store, holdNextAppend } = await controllableStore();
    const deps = processOn(store, { pendingPerStream: 2 });
    const userId = await fundedUser(deps);
    const held = holdNextAppend();
    const first = chargeCall(deps, { userId, chargeId: 'c0', product: 'screen', details });
    await held.entered;
    const waiting = [1, 2].map((i) => chargeCall(deps, { userId, chargeId: `c${i}`, product: 'screen', details }));
    await expect(chargeCall(deps, { userId, chargeId: 'c3', product: 'screen', details })).rejects.toMatchObject({ code: 'overloaded' });
    held.release();
    await Promise.all([first, ...waiting]);
    await chargeCall(deps, { userId, chargeId: 'c3', product: 'screen', details });
    expect(await balanceUsd(deps, userId)).toBe(0.6);
  });

  it('refuses with overloaded beyond the streams busy at once', async () => {
    const { store, holdNextAppend } = await controllableStore();
    const deps = processOn(store, { busyStreams: 1 });
    const [a, b] = [await fundedUser(deps), await fundedUser(deps)];
    const held = holdNextAppend();
    const first = chargeCall(deps, { userId: a, chargeId: 'c0', product: 'screen', details });
    await held.entered;
    await expect(chargeCall(deps, { userId: b, chargeId: 'c0', product: 'screen', details })).rejects.toMatchObject({ code: 'overloaded' });
    held.release();
    await first;
    await chargeCall(deps, { userId: b, chargeId: 'c0', product: 'screen', details });
  });

  it('read-api answers overloaded with 503 and Retry-After', async () => {
    const app = Fastify();
    app.setErrorHandler(errorHandler);
    app.get('/busy', async () => {
      throw fail('overloaded', 'too many commands waiting; retry shortly', { retryAfterSeconds: 1 });
    });
    const response = await app.inject({ method: 'GET', url: '/busy' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json()).toMatchObject({ error: { code: 'overloaded' } });
    await app.close();
  });
});
