import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IDEMPOTENCY_WINDOW_MS } from '../domain/idempotency/idempotency.decider.js';
import { ledgerDecider } from '../domain/ledger/ledger.decider.js';
import { ledgerStream, type LedgerEvent } from '../domain/ledger/ledger.events.js';
import type { Clock } from '../domain/ports/clock.port.js';
import type { EventStore } from '../domain/ports/event-store.port.js';
import { isServiceError, ServiceError } from '../domain/shared/errors.js';
import { openLmdbEventStore } from '../infra/embedded/lmdb-event-store.js';
import { cryptoRandom } from '../infra/system/crypto-random.js';
import { uuidIds } from '../infra/system/uuid-ids.js';
import { errorBody } from '../read-api/errors.js';
import { until } from '../test/support/webhook-events.js';
import { changePlan, chargeCall, deposit, refundCall } from './billing.commands.js';
import type { CommandDeps } from './command-deps.js';
import { createCommandExecutor } from './command-executor.js';
import { idempotentCall, WAIT_FOR_TWIN_MS, type KeyedResult } from './idempotent-call.js';
import { chargedBillingSchema } from '../domain/ledger/charged-billing.js';

/** The outcome the paid call of these tests returns (like screenAddress's), and its schema, which a replay parses. */
const paidOutcomeSchema = z.object({ verdict: z.string(), callId: z.string(), billing: chargedBillingSchema });
type PaidOutcome = z.infer<typeof paidOutcomeSchema>;
/** The outcome a keyed call answered (these tests never meet an answer recorded before outcomes were stored). */
function outcomeOf(result: KeyedResult<PaidOutcome>): PaidOutcome {
  if (result.kind !== 'outcome') throw new Error('expected an outcome');
  return result.outcome;
}

const dirs: string[] = [];
const stores: EventStore[] = [];
async function openStore(): Promise<EventStore> {
  const dir = await mkdtemp(join(tmpdir(), 'idempotent-call-'));
  dirs.push(dir);
  const store = await openLmdbEventStore(dir, { fsync: false });
  stores.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A clock the test can move; one millisecond per reading otherwise. */
function testClock(start = '2026-05-12T10:00:00.000Z') {
  const clock = { t: Date.parse(start), now: () => new Date(clock.t++) };
  return clock satisfies Clock;
}

function processOn(store: EventStore, clock: Clock, bootId: string): CommandDeps {
  return { executor: createCommandExecutor({ store, clock, ids: uuidIds }), clock, ids: uuidIds, random: cryptoRandom, bootId };
}

const PRICE = 100_000;
const ROUTE = 'POST /v2/screen';
const body = { address: '0x0000000000000000000000000000000000000001', network: 'ethereum' };

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}
function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function ledgerEvents(store: EventStore, userId: string): Promise<LedgerEvent[]> {
  const events: LedgerEvent[] = [];
  for await (const recorded of store.read(ledgerStream(userId))) {
    const event = ledgerDecider.parse({ type: recorded.type, data: recorded.data });
    if (event) events.push(event);
  }
  return events;
}
const charges = async (store: EventStore, userId: string) => (await ledgerEvents(store, userId)).filter((e) => e.type === 'Charged');

async function setup(bootId = 'boot-1') {
  const store = await openStore();
  const clock = testClock();
  const deps = processOn(store, clock, bootId);
  const userId = `u-${uuidIds.newId()}`;
  await changePlan(deps, userId, { kind: 'ledger' });
  await deposit(deps, { userId, depositId: 'initial', amountMicros: 10 * PRICE });
  return { store, clock, deps, userId };
}

/** The paid call behind the key: charges the call id, like screenAddress does. */
function paidCall(
  deps: CommandDeps,
  userId: string,
  log: string[],
  options: { before?: () => Promise<void>; after?: () => Promise<void> } = {},
) {
  return async (callId: string): Promise<PaidOutcome> => {
    log.push(callId);
    await options.before?.();
    const { billing } = await chargeCall(deps, {
      userId,
      chargeId: callId,
      product: 'screen',
      details: { endpoint: ROUTE, keyId: 'k1', network: 'ethereum', subject: body.address },
    });
    await options.after?.();
    return { verdict: 'clean', callId, billing };
  };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isServiceError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('idempotentCall', () => {
  it('two concurrent calls with the same key and body execute once; the twin gets the stored outcome as a replay', async () => {
    const { store, deps, userId } = await setup();
    const executed: string[] = [];
    const run = paidCall(deps, userId, executed, { before: () => sleep(30) });
    const input = { userId, key: 'key-1', route: ROUTE, body };

    const [first, second] = await Promise.all([
      idempotentCall(deps, input, run, paidOutcomeSchema),
      idempotentCall(deps, input, run, paidOutcomeSchema),
    ]);

    expect(executed).toHaveLength(1);
    const [original, twin] = first.replay ? [second, first] : [first, second];
    expect(original.replay).toBe(false);
    expect(twin.replay).toBe(true);
    expect(twin.kind).toBe('outcome');
    expect(outcomeOf(original).billing).toMatchObject({ replay: false, balanceMicros: 900_000, chargedMicros: 100_000 });
    expect(outcomeOf(twin)).toEqual(outcomeOf(original));
    // later retries replay too, and nothing is ever charged twice
    const later = await idempotentCall(deps, input, run, paidOutcomeSchema);
    expect(later).toMatchObject({ replay: true, kind: 'outcome' });
    expect(executed).toHaveLength(1);
    expect(await charges(store, userId)).toHaveLength(1);
  });

  it("a stored outcome its route's schema refuses fails closed (store_corrupt): never replayed as a cast", async () => {
    const { store, deps, userId } = await setup();
    const executed: string[] = [];
    const input = { userId, key: 'key-shape', route: ROUTE, body };
    // An outcome of another shape, as an older version of the route might have stored it.
    const olderShape = z.object({ verdict: z.string(), callId: z.string() });
    const older = async (callId: string) => {
      executed.push(callId);
      return { verdict: 'clean', callId };
    };
    await idempotentCall(deps, input, older, olderShape);

    expect(await codeOf(idempotentCall(deps, input, paidCall(deps, userId, executed), paidOutcomeSchema))).toBe('store_corrupt');
    expect(executed).toHaveLength(1);
    expect(await charges(store, userId)).toHaveLength(0);
    // the schema that fits still replays it
    expect(await idempotentCall(deps, input, older, olderShape)).toMatchObject({
      kind: 'outcome',
      replay: true,
      outcome: { verdict: 'clean' },
    });
  });

  it('a burst of 20 twins still executes once and charges once', async () => {
    const { store, deps, userId } = await setup();
    const executed: string[] = [];
    const run = paidCall(deps, userId, executed, { before: () => sleep(20) });
    const input = { userId, key: 'burst', route: ROUTE, body };
    const results = await Promise.all(Array.from({ length: 20 }, () => idempotentCall(deps, input, run, paidOutcomeSchema)));
    expect(executed).toHaveLength(1);
    expect(results.filter((r) => !r.replay)).toHaveLength(1);
    expect(new Set(results.map((r) => outcomeOf(r).callId))).toEqual(new Set(executed));
    expect(await charges(store, userId)).toHaveLength(1);
  });

  it('the same key with a different body is a 409 idempotency_conflict, in flight or done, and executes nothing', async () => {
    const { deps, userId } = await setup();
    const executed: string[] = [];
    const gate = deferred();
    const inFlight = idempotentCall(
      deps,
      { userId, key: 'key-2', route: ROUTE, body },
      paidCall(deps, userId, executed, { before: () => gate.promise }),
      paidOutcomeSchema,
    );
    await until(async () => executed.length === 1);
    const other = { ...body, network: 'bitcoin' };
    const conflict = idempotentCall(
      deps,
      { userId, key: 'key-2', route: ROUTE, body: other },
      paidCall(deps, userId, executed),
      paidOutcomeSchema,
    );
    const error = await conflict.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('idempotency_conflict');
    expect(errorBody(error as ServiceError).status).toBe(409);
    gate.resolve();
    await inFlight;
    expect(
      await codeOf(
        idempotentCall(deps, { userId, key: 'key-2', route: ROUTE, body: other }, paidCall(deps, userId, executed), paidOutcomeSchema),
      ),
    ).toBe('idempotency_conflict');
    // another route with the same key is another request too
    expect(
      await codeOf(
        idempotentCall(
          deps,
          { userId, key: 'key-2', route: 'POST /v2/check-transfer', body },
          paidCall(deps, userId, executed),
          paidOutcomeSchema,
        ),
      ),
    ).toBe('idempotency_conflict');
    expect(executed).toHaveLength(1);
    // keys are per user: another user's identical key is unrelated
    const otherUser = `u-${uuidIds.newId()}`;
    await changePlan(deps, otherUser, { kind: 'ledger' });
    await deposit(deps, { userId: otherUser, amountMicros: PRICE });
    const theirs = await idempotentCall(
      deps,
      { userId: otherUser, key: 'key-2', route: ROUTE, body: other },
      paidCall(deps, otherUser, executed),
      paidOutcomeSchema,
    );
    expect(theirs.replay).toBe(false);
  });

  it('an execute() that throws releases the key: the error reaches the caller and a retry executes', async () => {
    const { store, deps, userId } = await setup();
    const input = { userId, key: 'key-3', route: ROUTE, body };
    const executed: string[] = [];
    // like screenAddress on a backend failure: charged, refunded, then the error
    const failing = async (callId: string): Promise<PaidOutcome> => {
      executed.push(callId);
      await chargeCall(deps, {
        userId,
        chargeId: callId,
        product: 'screen',
        details: { endpoint: ROUTE, keyId: null, network: null, subject: null },
      });
      await refundCall(deps, { userId, chargeId: callId, reason: 'backend_unavailable' });
      throw new ServiceError({ code: 'backend_unavailable', message: 'backend down' });
    };
    expect(await codeOf(idempotentCall(deps, input, failing, paidOutcomeSchema))).toBe('backend_unavailable');

    const retry = await idempotentCall(deps, input, paidCall(deps, userId, executed), paidOutcomeSchema);
    expect(retry.replay).toBe(false);
    expect(executed).toHaveLength(2);
    expect(executed[1]).not.toBe(executed[0]);
    // a refusal (402) is an error too: not stored, the key stays free
    const input402 = { userId, key: 'key-4', route: ROUTE, body };
    const refused = idempotentCall(
      deps,
      input402,
      async () => {
        throw new ServiceError({ code: 'insufficient_funds', message: 'refused' });
      },
      paidOutcomeSchema,
    );
    expect(await codeOf(refused)).toBe('insufficient_funds');
    const afterRefusal = await idempotentCall(deps, input402, paidCall(deps, userId, executed), paidOutcomeSchema);
    expect(afterRefusal).toMatchObject({ kind: 'outcome', replay: false });

    const events = await ledgerEvents(store, userId);
    expect(events.filter((e) => e.type === 'Charged')).toHaveLength(3);
    expect(events.filter((e) => e.type === 'Refunded')).toHaveLength(1);
    const balance = events.reduce(
      (b, e) =>
        b + (e.type === 'FundsDeposited' || e.type === 'Refunded' ? e.data.amountMicros : e.type === 'Charged' ? -e.data.amountMicros : 0),
      0,
    );
    expect(balance).toBe(8 * PRICE);
  });

  it('a claim left by another bootId (crashed after charging) is taken over with the SAME callId and never charged twice', async () => {
    const { store, clock, deps: boot1, userId } = await setup('boot-1');
    const boot2 = processOn(store, clock, 'boot-2');
    const input = { userId, key: 'key-5', route: ROUTE, body };
    const executed1: string[] = [];
    const executed2: string[] = [];
    const charged = deferred();
    const crash = deferred(); // boot-1 never gets past its charge until the end of the test
    const hung = idempotentCall(
      boot1,
      input,
      paidCall(boot1, userId, executed1, {
        after: async () => {
          charged.resolve();
          await crash.promise;
        },
      }),
      paidOutcomeSchema,
    );
    await charged.promise;
    await sleep(5);
    expect(await charges(store, userId)).toHaveLength(1);

    const takenOver = await idempotentCall(boot2, input, paidCall(boot2, userId, executed2), paidOutcomeSchema);
    expect(executed2).toEqual(executed1); // the same call id
    expect(takenOver.replay).toBe(false);
    // the ledger recognised the call id: nothing was taken the second time
    expect(outcomeOf(takenOver).billing).toMatchObject({ replay: true, balanceMicros: 900_000 });
    expect(await charges(store, userId)).toHaveLength(1);

    // the old process wakes up: its late response does not replace the stored one, and nothing is charged
    crash.resolve();
    await hung;
    expect(await charges(store, userId)).toHaveLength(1);
    const replay = await idempotentCall(boot1, input, paidCall(boot1, userId, executed1), paidOutcomeSchema);
    expect(replay.replay).toBe(true);
    expect(outcomeOf(replay).callId).toBe(executed1[0]);
    expect(executed1).toHaveLength(1);
  });

  it('a claim left by another bootId before it charged: the new boot charges once, a late old execution charges nothing', async () => {
    const { store, clock, deps: boot1, userId } = await setup('boot-1');
    const boot2 = processOn(store, clock, 'boot-2');
    const input = { userId, key: 'key-6', route: ROUTE, body };
    const executed1: string[] = [];
    const executed2: string[] = [];
    const crash = deferred();
    const hung = idempotentCall(boot1, input, paidCall(boot1, userId, executed1, { before: () => crash.promise }), paidOutcomeSchema);
    // Bounded wait for the old boot to reach its execution (a fixed sleep was too short under load).
    await until(async () => executed1.length === 1);
    expect(await charges(store, userId)).toHaveLength(0);

    const takenOver = await idempotentCall(boot2, input, paidCall(boot2, userId, executed2), paidOutcomeSchema);
    expect(executed2).toEqual(executed1);
    expect(outcomeOf(takenOver).billing.replay).toBe(false);
    crash.resolve();
    await hung;
    const stored = await charges(store, userId);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.data.chargeId).toBe(executed1[0]);
  });

  it('after 24 h the key is free again: a new call id executes', async () => {
    const { deps, clock, userId } = await setup();
    const input = { userId, key: 'key-7', route: ROUTE, body };
    const executed: string[] = [];
    await idempotentCall(deps, input, paidCall(deps, userId, executed), paidOutcomeSchema);
    clock.t += IDEMPOTENCY_WINDOW_MS - 60_000;
    expect((await idempotentCall(deps, input, paidCall(deps, userId, executed), paidOutcomeSchema)).replay).toBe(true);
    clock.t += 60_000;
    const fresh = await idempotentCall(
      deps,
      { ...input, body: { ...body, network: 'bitcoin' } },
      paidCall(deps, userId, executed),
      paidOutcomeSchema,
    );
    expect(fresh.replay).toBe(false);
    expect(executed).toHaveLength(2);
    expect(executed[1]).not.toBe(executed[0]);
  });

  it('a twin waits on the clock: it answers 409 only once the clock has passed 15 s, and re-reads the key when woken earlier', async () => {
    const store = await openStore();
    const pending = new Set<() => void>();
    const fireTimers = () => {
      for (const fire of [...pending]) fire();
    };
    // Time moves only when the test moves it; its timers fire only when the test fires them.
    const clock = {
      t: Date.parse('2026-05-12T10:00:00.000Z'),
      now: () => new Date(clock.t),
      after: (_ms: number, fire: () => void) => {
        pending.add(fire);
        return () => pending.delete(fire);
      },
    };
    const deps = processOn(store, clock, 'boot-1');
    const userId = `u-${uuidIds.newId()}`;
    await changePlan(deps, userId, { kind: 'ledger' });
    await deposit(deps, { userId, depositId: 'initial', amountMicros: 10 * PRICE });
    const input = { userId, key: 'key-8', route: ROUTE, body };
    const executed: string[] = [];
    const gate = deferred();
    const first = idempotentCall(deps, input, paidCall(deps, userId, executed, { before: () => gate.promise }), paidOutcomeSchema);
    await until(async () => executed.length === 1);
    const twin = idempotentCall(deps, input, paidCall(deps, userId, executed), paidOutcomeSchema);
    let twinDone = false;
    void twin.then(
      () => (twinDone = true),
      () => (twinDone = true),
    );
    await sleep(10);
    expect(pending.size).toBe(1);
    // a timer firing before the deadline: the twin reads the key again and keeps waiting
    fireTimers();
    await sleep(10);
    expect(twinDone).toBe(false);
    expect(pending.size).toBe(1);
    clock.t += WAIT_FOR_TWIN_MS;
    fireTimers();
    expect(await codeOf(twin)).toBe('idempotency_conflict');
    gate.resolve();
    expect(outcomeOf(await first).verdict).toBe('clean');
    expect(executed).toHaveLength(1);
    expect(pending.size).toBe(0);
  });
});
