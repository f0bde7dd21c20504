import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import type { Facilitator, FacilitatorSettleResponse, FacilitatorVerifyResponse } from '../../domain/ports/facilitator.port.js';
import { fail, isServiceError } from '../../domain/shared/errors.js';
import { X402_NETWORKS, type X402Terms } from '../../domain/x402/x402-networks.js';
import { openLmdbEventStore } from '../../infra/embedded/lmdb-event-store.js';
import { cryptoRandom } from '../../infra/system/crypto-random.js';
import { uuidIds } from '../../infra/system/uuid-ids.js';
import { madeUpEvmAddress } from '../../test/helpers/made-up-addresses.js';
import { signPayment } from '../../test/support/x402-payloads.js';
import { createCommandExecutor } from '../command-executor.js';
import { payForCall, type PaidCall, type X402Deps } from './pay-for-call.js';

/**
 * The pipeline over the file event store, with the Facilitator port scripted: what the chain would answer
 * is the input here (the real local facilitator on anvil is exercised by the e2e suites).
 */
const terms: X402Terms = {
  network: X402_NETWORKS['base-sepolia'],
  payTo: madeUpEvmAddress('pipeline-payee') as `0x${string}`,
  maxTimeoutSeconds: 300,
};
const payer = privateKeyToAccount(generatePrivateKey());
const TX = `0x${'ef'.repeat(32)}`;

const dirs: string[] = [];
const stores: EventStore[] = [];
afterEach(async () => Promise.all(stores.splice(0).map((s) => s.close())));
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

function scripted(answers: { verify?: () => Promise<FacilitatorVerifyResponse>; settle?: () => Promise<FacilitatorSettleResponse> } = {}) {
  const calls = { verify: 0, settle: 0 };
  const facilitator: Facilitator = {
    verify: async () => (calls.verify++, answers.verify ? answers.verify() : { isValid: true }),
    settle: async () => (
      calls.settle++,
      answers.settle ? answers.settle() : { success: true, transaction: TX, network: terms.network.caip2 }
    ),
    supported: async () => ({ kinds: [] }),
  };
  return { facilitator, calls };
}

async function processOn(facilitator: Facilitator, store?: EventStore): Promise<X402Deps & { store: EventStore }> {
  if (!store) {
    const dir = await mkdtemp(join(tmpdir(), 'pay-for-call-'));
    dirs.push(dir);
    store = await openLmdbEventStore(dir, { fsync: false });
    stores.push(store);
  }
  const clock = { now: () => new Date() };
  return {
    store,
    executor: createCommandExecutor({ store, clock, ids: uuidIds }),
    clock,
    ids: uuidIds,
    random: cryptoRandom,
    bootId: uuidIds.newId(),
    facilitator,
    terms,
  };
}

const call = async (overrides: Partial<PaidCall<{ status: number }>> = {}): Promise<PaidCall<{ status: number }>> => ({
  callId: uuidIds.newId(),
  product: 'screen',
  resource: 'GET /screen/ETH/0x01',
  payment: await signPayment(payer, terms),
  run: async () => ({ status: 200 }),
  ...overrides,
});

async function eventTypes(store: EventStore): Promise<string[]> {
  const types: string[] = [];
  for await (const e of store.readAll()) types.push(e.type);
  return types;
}

async function codeOf(promise: Promise<unknown>) {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return error.code;
  }
}

describe('payForCall: settle first, then serve', () => {
  it('a valid proof is reserved, verified, settled, then served; every step is an event', async () => {
    const { facilitator, calls } = scripted();
    const deps = await processOn(facilitator);
    const outcome = await payForCall(deps, await call());
    expect(outcome.receipt).toEqual({ success: true, transaction: TX, network: 'eip155:84532', payer: payer.address });
    expect(calls).toEqual({ verify: 1, settle: 1 });
    expect(await eventTypes(deps.store)).toEqual(['PaymentReserved', 'PaymentSettled', 'PaidCallServed']);
  });

  it('a refusal by the facilitator is its spec code; nothing is settled and the backend never runs', async () => {
    const { facilitator, calls } = scripted({
      verify: async () => ({ isValid: false, invalidReason: 'invalid_exact_evm_insufficient_balance' }),
    });
    const deps = await processOn(facilitator);
    let ran = false;
    expect(await codeOf(payForCall(deps, await call({ run: async () => ((ran = true), { status: 200 }) })))).toBe('payment_invalid');
    expect(calls.settle).toBe(0);
    expect(ran).toBe(false);
    expect(await eventTypes(deps.store)).toEqual(['PaymentReserved', 'PaymentFailed']);
  });

  it("a refused precheck (the client's own fact) touches nothing: no event, no facilitator call, and the same proof pays later", async () => {
    const { facilitator, calls } = scripted();
    const deps = await processOn(facilitator);
    const payment = await signPayment(payer, terms);
    let mined = false;
    const precheck = async () => {
      if (!mined) throw fail('tx_not_found', 'not mined yet');
    };
    expect(await codeOf(payForCall(deps, await call({ payment, precheck })))).toBe('tx_not_found');
    expect(calls).toEqual({ verify: 0, settle: 0 });
    expect(await eventTypes(deps.store)).toEqual([]);
    mined = true;
    expect((await payForCall(deps, await call({ payment, precheck }))).receipt?.success).toBe(true);
  });

  it('a settlement refused on chain answers with its receipt (success: false); the backend never runs', async () => {
    const { facilitator } = scripted({
      settle: async () => ({
        success: false,
        errorReason: 'invalid_exact_evm_transaction_failed',
        transaction: TX,
        network: 'eip155:84532',
      }),
    });
    const deps = await processOn(facilitator);
    const error = await payForCall(deps, await call()).catch((e: unknown) => e);
    expect(isServiceError(error) && error.code).toBe('payment_invalid');
    expect(isServiceError(error) && error.details?.receipt).toMatchObject({ success: false, transaction: TX });
    expect(await eventTypes(deps.store)).toEqual(['PaymentReserved', 'PaymentFailed']);
  });

  it('an unreachable chain before broadcast is backend_unavailable with nothing taken; after broadcast it is recorded as uncertain', async () => {
    const before = scripted({ settle: async () => Promise.reject(fail('backend_unavailable', 'rpc down', { broadcast: false })) });
    const a = await processOn(before.facilitator);
    expect(await codeOf(payForCall(a, await call()))).toBe('backend_unavailable');
    expect(await eventTypes(a.store)).toEqual(['PaymentReserved', 'PaymentFailed']);

    const after = scripted({
      settle: async () => Promise.reject(fail('backend_unavailable', 'receipt timeout', { broadcast: true, transaction: TX })),
    });
    const b = await processOn(after.facilitator);
    const error = await payForCall(b, await call()).catch((e: unknown) => e);
    expect(isServiceError(error) && error.message).toMatch(/outcome is unknown.*reconciliation/);
    expect(await eventTypes(b.store)).toEqual(['PaymentReserved', 'PaymentSettlementUncertain']);
  });

  it('two processes on one event store: a proof reserved by one is payment_replayed in the other', async () => {
    const first = await processOn(scripted().facilitator);
    const second = await processOn(scripted().facilitator, first.store);
    const payment = await signPayment(payer, terms);
    await payForCall(first, await call({ payment }));
    expect(await codeOf(payForCall(second, await call({ payment })))).toBe('payment_replayed');
  });
});

describe('payForCall: one payment per subject', () => {
  it('a second paid call for a paid subject is served without settling its proof', async () => {
    const { facilitator, calls } = scripted();
    const deps = await processOn(facilitator);
    const first = await payForCall(
      deps,
      await call({ product: 'check_transfer', subject: 'ETH:0xfeed', payment: await signPayment(payer, terms, { priceMicros: 500_000 }) }),
    );
    const second = await payForCall(
      deps,
      await call({ product: 'check_transfer', subject: 'ETH:0xfeed', payment: await signPayment(payer, terms, { priceMicros: 500_000 }) }),
    );
    expect(first.receipt?.success).toBe(true);
    expect(second.receipt).toBeNull();
    expect(calls.settle).toBe(1);
    expect((await eventTypes(deps.store)).filter((t) => t.startsWith('Payment') || t.startsWith('Paid'))).toEqual([
      'PaymentReserved',
      'PaidSubjectClaimed',
      'PaymentSettled',
      'PaidSubjectConfirmed',
      'PaidCallServed',
      'PaymentReserved',
      'PaymentWaived',
      'PaidCallServed',
    ]);
  });

  it('concurrent first payments for one subject settle once', async () => {
    const { facilitator, calls } = scripted();
    const deps = await processOn(facilitator);
    const payments = await Promise.all(Array.from({ length: 5 }, () => signPayment(payer, terms, { priceMicros: 500_000 })));
    const outcomes = await Promise.all(
      payments.map(async (payment) => payForCall(deps, await call({ product: 'check_transfer', subject: 'ETH:0xbeef', payment }))),
    );
    expect(calls.settle).toBe(1);
    expect(outcomes.filter((o) => o.receipt !== null)).toHaveLength(1);
  });

  it('a failed settlement releases the subject: the next payer pays', async () => {
    let failNext = true;
    const { facilitator, calls } = scripted({
      settle: async () =>
        failNext
          ? ((failNext = false),
            { success: false, errorReason: 'invalid_exact_evm_insufficient_balance', transaction: '', network: 'eip155:84532' })
          : { success: true, transaction: TX, network: 'eip155:84532' },
    });
    const deps = await processOn(facilitator);
    const subject = { product: 'check_transfer' as const, subject: 'ETH:0xcafe' };
    expect(
      await codeOf(payForCall(deps, await call({ ...subject, payment: await signPayment(payer, terms, { priceMicros: 500_000 }) }))),
    ).toBe('payment_invalid');
    const next = await payForCall(deps, await call({ ...subject, payment: await signPayment(payer, terms, { priceMicros: 500_000 }) }));
    expect(next.receipt?.success).toBe(true);
    expect(calls.settle).toBe(2);
  });
});
