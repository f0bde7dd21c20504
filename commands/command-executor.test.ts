import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ledgerDecider } from '../domain/ledger/ledger.decider.js';
import { ledgerStream, type LedgerEvent } from '../domain/ledger/ledger.events.js';
import type { ChargedBilling } from '../domain/ledger/charged-billing.js';
import type { Clock } from '../domain/ports/clock.port.js';
import type { EventStore } from '../domain/ports/event-store.port.js';
import { isServiceError } from '../domain/shared/errors.js';
import { openLmdbEventStore, type LmdbEventStore } from '../infra/embedded/lmdb-event-store.js';
import { cryptoRandom } from '../infra/system/crypto-random.js';
import { uuidIds } from '../infra/system/uuid-ids.js';
import { changePlan, chargeCall, deposit, readBalance, refundCall, type ChargeResult } from './billing.commands.js';
import type { CommandDeps } from './command-deps.js';
import { createCommandExecutor } from './command-executor.js';

/**
 * The batching executor over the real embedded file event store: many racers on ONE ledger stream, and
 * a second executor on the same store standing in for another process whose cache is stale.
 */

const dirs: string[] = [];
const stores: EventStore[] = [];
async function openStore(fsync = false): Promise<LmdbEventStore> {
  const dir = await mkdtemp(join(tmpdir(), 'command-executor-'));
  dirs.push(dir);
  const store = await openLmdbEventStore(dir, { fsync });
  stores.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The store, counting its forward reads per stream (a cold load reads forward; a last-event probe backwards). */
function countingReads(store: EventStore): { store: EventStore; forwardReads: (stream: string) => number } {
  const reads = new Map<string, number>();
  const counting: EventStore = {
    append: (stream, events, options) => store.append(stream, events, options),
    read: (stream, options) => {
      if (options?.direction !== 'backwards') reads.set(stream, (reads.get(stream) ?? 0) + 1);
      return store.read(stream, options);
    },
    streamRevision: (stream) => store.streamRevision(stream),
    readAll: (options) => store.readAll(options),
    headPosition: () => store.headPosition(),
    subscribeToAll: (options) => store.subscribeToAll(options),
    close: () => store.close(),
  };
  return { store: counting, forwardReads: (stream) => reads.get(stream) ?? 0 };
}

/** Mid-month, one millisecond per reading: no month boundary inside a test. */
function testClock(start = '2026-05-12T10:00:00.000Z'): Clock {
  let t = Date.parse(start);
  return { now: () => new Date(t++) };
}

/** One "process": its own executor (and cache) over a shared store. */
function processOn(store: EventStore, clock: Clock, bootId = `boot-${uuidIds.newId()}`): CommandDeps {
  return { executor: createCommandExecutor({ store, clock, ids: uuidIds }), clock, ids: uuidIds, random: cryptoRandom, bootId };
}

const details = { endpoint: 'POST /v2/screen', keyId: 'k1', network: 'ethereum', subject: '0xabc' };
const PRICE = 100_000; // the screen product

async function ledgerEvents(store: EventStore, userId: string): Promise<LedgerEvent[]> {
  const events: LedgerEvent[] = [];
  for await (const recorded of store.read(ledgerStream(userId))) {
    const event = ledgerDecider.parse({ type: recorded.type, data: recorded.data });
    if (event) events.push(event);
  }
  return events;
}

/** The auditor: invariants of the stored stream, from the events alone. Returns the running balances. */
function auditStream(events: readonly LedgerEvent[]) {
  let balance = 0;
  const charges = new Map<string, { amount: number; refunded: number }>();
  const deposits = new Set<string>();
  /** Balance right after each charge, in stream order. */
  const afterCharge: { chargeId: string; balance: number; amount: number }[] = [];
  for (const event of events) {
    switch (event.type) {
      case 'FundsDeposited':
        expect(deposits.has(event.data.depositId), `deposit ${event.data.depositId} twice`).toBe(false);
        deposits.add(event.data.depositId);
        balance += event.data.amountMicros;
        break;
      case 'Charged':
        expect(charges.has(event.data.chargeId), `charge ${event.data.chargeId} twice`).toBe(false);
        charges.set(event.data.chargeId, { amount: event.data.amountMicros, refunded: 0 });
        balance -= event.data.amountMicros;
        afterCharge.push({ chargeId: event.data.chargeId, balance, amount: event.data.amountMicros });
        break;
      case 'Refunded': {
        const charge = charges.get(event.data.chargeId);
        expect(charge, `refund of unknown charge ${event.data.chargeId}`).toBeDefined();
        charge!.refunded += event.data.amountMicros;
        expect(charge!.refunded).toBeLessThanOrEqual(charge!.amount);
        balance += event.data.amountMicros;
        break;
      }
      default:
        break;
    }
    expect(balance, 'balance below zero').toBeGreaterThanOrEqual(0);
  }
  const total = (type: LedgerEvent['type']) =>
    events.reduce((s, e) => s + (e.type === type ? (e.data as { amountMicros: number }).amountMicros : 0), 0);
  expect(balance).toBe(total('FundsDeposited') - total('Charged') + total('Refunded'));
  return { balance, charges, afterCharge };
}

/** Every envelope a caller got for a charge it made agrees with the stream right after that charge. */
function expectEnvelopesMatchStream(
  envelopes: ReadonlyMap<string, ChargedBilling>,
  afterCharge: ReturnType<typeof auditStream>['afterCharge'],
) {
  const inStreamOrder: number[] = [];
  for (const { chargeId, balance, amount } of afterCharge) {
    const envelope = envelopes.get(chargeId);
    if (!envelope) continue;
    expect(envelope).toMatchObject({ model: 'ledger', chargedMicros: amount, balanceMicros: balance, replay: false });
    inStreamOrder.push(envelope.model === 'ledger' ? envelope.balanceMicros : Number.NaN);
  }
  for (let i = 1; i < inStreamOrder.length; i++) expect(inStreamOrder[i]!).toBeLessThan(inStreamOrder[i - 1]!);
}

/** A deterministic shuffle (mulberry32), so a failure replays. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let a = seed >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

async function fundedLedger(deps: CommandDeps, micros: number): Promise<string> {
  const userId = `u-${uuidIds.newId()}`;
  await changePlan(deps, userId, { kind: 'ledger' });
  await deposit(deps, { userId, depositId: 'initial', amountMicros: micros });
  return userId;
}

type Settled = { chargeId: string; result: PromiseSettledResult<ChargeResult> };
async function fire(deps: CommandDeps, userId: string, chargeIds: readonly string[]): Promise<Settled[]> {
  const results = await Promise.allSettled(chargeIds.map((chargeId) => chargeCall(deps, { userId, chargeId, product: 'screen', details })));
  return results.map((result, i) => ({ chargeId: chargeIds[i]!, result }));
}

function refusalCodes(settled: readonly Settled[]): string[] {
  return settled.flatMap(({ result }) => {
    if (result.status === 'fulfilled') return [];
    return [isServiceError(result.reason) ? result.reason.code : String(result.reason)];
  });
}

describe('command executor over the file event store: one process', () => {
  it('200 concurrent charges on one ledger: exactly the affordable number succeed, each id once, batched into few appends', async () => {
    const store = await openStore(true);
    const deps = processOn(store, testClock());
    const affordable = 73;
    const userId = await fundedLedger(deps, affordable * PRICE + PRICE / 2);
    const distinct = Array.from({ length: 170 }, (_, i) => `call-${i}`);
    const duplicates = Array.from({ length: 30 }, (_, i) => `call-${i * 5}`);
    const chargeIds = shuffled([...distinct, ...duplicates], 0xc0ffee);
    const flushesBefore = store.flushes;

    const settled = await fire(deps, userId, chargeIds);

    const charged = settled.filter((s) => s.result.status === 'fulfilled' && !s.result.value.duplicate);
    const replays = settled.filter((s) => s.result.status === 'fulfilled' && s.result.value.duplicate);
    expect(charged).toHaveLength(affordable);
    expect(new Set(charged.map((s) => s.chargeId)).size).toBe(affordable);
    // a replay is a repeated id of a charged call: it took nothing and says so
    for (const s of replays) {
      expect(charged.some((c) => c.chargeId === s.chargeId)).toBe(true);
      expect(s.result.status === 'fulfilled' && s.result.value.billing.replay).toBe(true);
    }
    expect(new Set(refusalCodes(settled))).toEqual(new Set(['insufficient_funds']));
    expect(charged.length + replays.length + refusalCodes(settled).length).toBe(200);
    // the racers shared a handful of appends (one fsync each), not 200
    expect(store.flushes - flushesBefore).toBeLessThanOrEqual(5);

    const events = await ledgerEvents(store, userId);
    const audit = auditStream(events);
    expect(audit.charges.size).toBe(affordable);
    expect([...audit.charges.keys()].sort()).toEqual(charged.map((s) => s.chargeId).sort());
    expect(audit.balance).toBe(PRICE / 2);
    const envelopes = new Map(charged.map((s) => [s.chargeId, (s.result as PromiseFulfilledResult<ChargeResult>).value.billing]));
    expectEnvelopesMatchStream(envelopes, audit.afterCharge);
    // the live state, a cold read by another executor, and the events agree
    expect((await readBalance(deps, userId)).state.balanceMicros).toBe(PRICE / 2);
    expect((await readBalance(processOn(store, testClock()), userId)).state.balanceMicros).toBe(PRICE / 2);
  });

  it('reads a stream once however many loads race its own appends (the store counts an append before it returns here)', async () => {
    const { store: counting, forwardReads } = countingReads(await openStore());
    const deps = processOn(counting, testClock());
    const userId = await fundedLedger(deps, 1_000 * PRICE);
    await readBalance(deps, userId);
    const before = forwardReads(ledgerStream(userId));
    // Charges in waves while readers keep loading the stream, as screens' affordability checks do.
    let charging = true;
    const readers = Array.from({ length: 8 }, async () => {
      while (charging) {
        await readBalance(deps, userId);
        await new Promise((resolve) => setImmediate(resolve)); // let the appends' I/O complete meanwhile
      }
    });
    for (let wave = 0; wave < 20; wave++) {
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => chargeCall(deps, { userId, chargeId: `race-${wave}-${i}`, product: 'screen', details })),
      );
    }
    charging = false;
    await Promise.all(readers);
    expect(forwardReads(ledgerStream(userId)) - before).toBe(0);
    expect((await readBalance(deps, userId)).state.balanceMicros).toBe(1_000 * PRICE - 160 * PRICE);
  });

  it('a burst on a stream not cached (a restart) reads it once: the callers share one read', async () => {
    const store = await openStore();
    const writer = processOn(store, testClock());
    const userId = await fundedLedger(writer, 1_000 * PRICE);
    for (let i = 0; i < 50; i++) await chargeCall(writer, { userId, chargeId: `before-${i}`, product: 'screen', details });

    const { store: counting, forwardReads } = countingReads(store);
    const restarted = processOn(counting, testClock('2026-05-12T11:00:00.000Z'));
    const results = await Promise.all([
      ...Array.from({ length: 16 }, (_, i) => chargeCall(restarted, { userId, chargeId: `burst-${i}`, product: 'screen', details })),
      ...Array.from({ length: 16 }, () => readBalance(restarted, userId)),
    ]);
    expect(forwardReads(ledgerStream(userId))).toBe(1);
    expect(results.slice(0, 16).map((result) => ('duplicate' in result ? result.duplicate : 'not a charge'))).toEqual(
      Array(16).fill(false),
    );
    expect((await readBalance(restarted, userId)).state.balanceMicros).toBe(1_000 * PRICE - 66 * PRICE);
  });

  it('refunds racing charges and their own repeats: each charge refunded at most once, balance conserved', async () => {
    const store = await openStore();
    const deps = processOn(store, testClock());
    const userId = await fundedLedger(deps, 20 * PRICE);
    await Promise.all(Array.from({ length: 20 }, (_, i) => chargeCall(deps, { userId, chargeId: `c${i}`, product: 'screen', details })));
    const work = shuffled(
      [
        ...Array.from({ length: 10 }, (_, i) => () => refundCall(deps, { userId, chargeId: `c${i}`, reason: 'test' })),
        ...Array.from({ length: 10 }, (_, i) => () => refundCall(deps, { userId, chargeId: `c${i}`, reason: 'test again' })),
        ...Array.from({ length: 30 }, (_, i) => () => chargeCall(deps, { userId, chargeId: `n${i}`, product: 'screen', details })),
        () => refundCall(deps, { userId, chargeId: 'never-charged', reason: 'test' }),
      ],
      7,
    );
    const results = await Promise.allSettled(work.map((run) => run()));
    const codes = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code?: string }).code] : []));
    expect(codes.filter((c) => c === 'not_found')).toHaveLength(1);
    expect(codes.every((c) => c === 'not_found' || c === 'insufficient_funds')).toBe(true);
    const audit = auditStream(await ledgerEvents(store, userId));
    const refunds = (await ledgerEvents(store, userId)).filter((e) => e.type === 'Refunded');
    expect(refunds).toHaveLength(10);
    // 10 refunded screens paid for exactly 10 new ones
    expect(audit.charges.size).toBe(30);
    expect(audit.balance).toBe(0);
  });
});

describe('command executor over the file event store: a second process with a stale cache', () => {
  it('a stale executor re-reads on wrong_expected_version: no charge of a known id, no overdraft', async () => {
    const store = await openStore();
    const clock = testClock();
    const a = processOn(store, clock);
    const b = processOn(store, clock);
    const userId = await fundedLedger(a, 10 * PRICE);
    await chargeCall(a, { userId, chargeId: 'first', product: 'screen', details });
    // B caches the ledger now, then A spends the rest behind its back
    expect((await b.executor.load(ledgerStream(userId), ledgerDecider)).state.balanceMicros).toBe(9 * PRICE);
    for (let i = 0; i < 9; i++) await chargeCall(a, { userId, chargeId: `a${i}`, product: 'screen', details });

    const again = await chargeCall(b, { userId, chargeId: 'a3', product: 'screen', details });
    expect(again.duplicate).toBe(true);
    expect(again.billing).toMatchObject({ model: 'ledger', balanceMicros: 0, replay: true });
    await expect(chargeCall(b, { userId, chargeId: 'b-new', product: 'screen', details })).rejects.toMatchObject({
      code: 'insufficient_funds',
    });
    const audit = auditStream(await ledgerEvents(store, userId));
    expect(audit.charges.size).toBe(10);
    expect(audit.balance).toBe(0);
  });

  it('a stale executor deciding the SAME charge id with other terms never believes its own version', async () => {
    // Event ids derive from the command id, so B's append of "charge:x" at A's base revision matches the
    // ids A already wrote and the store accepts it as an idempotent retry. B must not then cache ITS
    // decision (a cheaper price) as the ledger's state, or its next charge overdraws the account.
    const store = await openStore();
    const clock = testClock();
    const a = processOn(store, clock);
    const b = processOn(store, clock);
    const userId = await fundedLedger(a, 10 * PRICE);
    await chargeCall(a, { userId, chargeId: 'warm-up', product: 'screen', details });
    await b.executor.load(ledgerStream(userId), ledgerDecider);

    await chargeCall(a, { userId, chargeId: 'x', product: 'inspect', details, priceMicros: 9 * PRICE });
    const stale = await chargeCall(b, { userId, chargeId: 'x', product: 'screen', details });
    expect(stale.duplicate).toBe(true);
    expect(stale.billing).toMatchObject({ balanceMicros: 0, replay: true });
    await expect(chargeCall(b, { userId, chargeId: 'y', product: 'screen', details })).rejects.toMatchObject({
      code: 'insufficient_funds',
    });
    const audit = auditStream(await ledgerEvents(store, userId));
    expect(audit.balance).toBe(0);
    expect((await b.executor.load(ledgerStream(userId), ledgerDecider)).state.balanceMicros).toBe(0);
  });

  it('two executors racing 2 × 100 charges with overlapping ids keep every invariant', async () => {
    const store = await openStore();
    const clock = testClock();
    const a = processOn(store, clock);
    const b = processOn(store, clock);
    const affordable = 90;
    const userId = await fundedLedger(a, affordable * PRICE);
    await Promise.all([a.executor.load(ledgerStream(userId), ledgerDecider), b.executor.load(ledgerStream(userId), ledgerDecider)]);
    const idsA = shuffled(
      Array.from({ length: 100 }, (_, i) => `call-${i}`),
      1,
    );
    const idsB = shuffled(
      Array.from({ length: 100 }, (_, i) => `call-${i + 60}`),
      2,
    ); // 40 shared ids
    const [settledA, settledB] = await Promise.all([fire(a, userId, idsA), fire(b, userId, idsB)]);
    const settled = [...settledA, ...settledB];

    const codes = refusalCodes(settled);
    expect(
      codes.filter((c) => c !== 'insufficient_funds'),
      'only refusals for money; conflicts were retried',
    ).toEqual([]);
    const audit = auditStream(await ledgerEvents(store, userId));
    expect(audit.charges.size).toBe(affordable);
    expect(audit.balance).toBe(0);
    // each stored charge was reported charged to exactly one caller; other callers of that id saw a replay
    for (const chargeId of audit.charges.keys()) {
      const reports = settled.filter((s) => s.chargeId === chargeId && s.result.status === 'fulfilled');
      expect(reports.length).toBeGreaterThanOrEqual(1);
      expect(reports.filter((s) => !(s.result as PromiseFulfilledResult<ChargeResult>).value.duplicate)).toHaveLength(1);
    }
    // nobody was told "charged" for an id that is not in the stream
    for (const s of settled) if (s.result.status === 'fulfilled') expect(audit.charges.has(s.chargeId)).toBe(true);
    const envelopes = new Map(
      settled.flatMap((s) =>
        s.result.status === 'fulfilled' && !s.result.value.duplicate ? [[s.chargeId, s.result.value.billing] as const] : [],
      ),
    );
    expectEnvelopesMatchStream(envelopes, audit.afterCharge);
    for (const deps of [a, b]) expect((await deps.executor.load(ledgerStream(userId), ledgerDecider)).state.balanceMicros).toBe(0);
  });

  it('property: random interleavings of charges, repeats, refunds and deposits over 1–3 executors', async () => {
    type Op =
      | { kind: 'charge'; proc: number; id: number; price: number; delay: number }
      | { kind: 'refund'; proc: number; id: number; delay: number }
      | { kind: 'deposit'; proc: number; id: number; amount: number; delay: number };
    const opArb: fc.Arbitrary<Op> = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({
          kind: fc.constant('charge' as const),
          proc: fc.nat(2),
          id: fc.nat(8),
          price: fc.constantFrom(100_000, 500_000, 1_000_000),
          delay: fc.nat(3),
        }),
      },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('refund' as const), proc: fc.nat(2), id: fc.nat(10), delay: fc.nat(3) }) },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('deposit' as const),
          proc: fc.nat(2),
          id: fc.nat(4),
          amount: fc.integer({ min: 1, max: 3_000_000 }),
          delay: fc.nat(3),
        }),
      },
    );
    const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 3_000_000 }),
        fc.array(opArb, { minLength: 1, maxLength: 60 }),
        async (processes, funds, ops) => {
          const store = await openStore();
          try {
            const clock = testClock();
            const procs = Array.from({ length: processes }, () => processOn(store, clock));
            const userId = `u-${uuidIds.newId()}`;
            await changePlan(procs[0]!, userId, { kind: 'ledger' });
            if (funds > 0) await deposit(procs[0]!, { userId, depositId: 'initial', amountMicros: funds });
            await Promise.all(procs.map((p) => p.executor.load(ledgerStream(userId), ledgerDecider)));

            const results = await Promise.allSettled(
              ops.map(async (op) => {
                for (let i = 0; i < op.delay; i++) await tick();
                const deps = procs[op.proc % processes]!;
                if (op.kind === 'charge') {
                  const r = await chargeCall(deps, { userId, chargeId: `c${op.id}`, product: 'screen', details, priceMicros: op.price });
                  return { op, duplicate: r.duplicate };
                }
                if (op.kind === 'refund') await refundCall(deps, { userId, chargeId: `c${op.id}`, reason: 'test' });
                else await deposit(deps, { userId, depositId: `d${op.id}`, amountMicros: op.amount });
                return { op, duplicate: false };
              }),
            );

            const audit = auditStream(await ledgerEvents(store, userId));
            results.forEach((r, i) => {
              const op = ops[i]!;
              if (r.status === 'rejected') {
                const code = (r.reason as { code?: string }).code;
                // A charge id whose charge was refunded is refused (backend_unavailable), never served again for free.
                const allowed =
                  op.kind === 'charge' ? ['insufficient_funds', 'backend_unavailable'] : op.kind === 'refund' ? ['not_found'] : [];
                expect(allowed, `${op.kind} refused with ${code}`).toContain(code);
                if (code === 'backend_unavailable')
                  expect(audit.charges.has(`c${op.id}`), `c${op.id} refused as refunded but never charged`).toBe(true);
              } else if (op.kind === 'charge') {
                expect(audit.charges.has(`c${op.id}`), `c${op.id} reported charged but not in the stream`).toBe(true);
              }
            });
            // each stored charge was reported as a (non-replay) charge to exactly one caller
            for (const chargeId of audit.charges.keys()) {
              const first = results.filter(
                (r, i) => r.status === 'fulfilled' && ops[i]!.kind === 'charge' && `c${ops[i]!.id}` === chargeId && !r.value.duplicate,
              );
              expect(first, `${chargeId} reported charged ${first.length} times`).toHaveLength(1);
            }
            for (const p of procs) {
              expect((await p.executor.load(ledgerStream(userId), ledgerDecider)).state.balanceMicros).toBe(audit.balance);
            }
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
