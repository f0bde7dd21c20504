import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntelIndex } from '../../domain/ports/intel-index.port.js';
import { fail } from '../../domain/shared/errors.js';
import { parseArgs } from '../../infra/cli/args.js';
import { runVerb } from '../../infra/cli/verbs.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startX402Harness, type X402Harness } from '../support/x402-harness.js';

/** The fault under test: the intelligence index fails for these addresses (an unreachable one, a broken one). */
const UNREACHABLE = madeUpEvmAddress('backend-unreachable').toLowerCase();
const BROKEN = madeUpEvmAddress('backend-broken').toLowerCase();

let h: X402Harness;
beforeAll(async () => {
  h = await startX402Harness({
    services: (services) => {
      const real = services.deps.intel;
      const faulty: IntelIndex = Object.assign(Object.create(real) as IntelIndex, {
        lookup: (address: string, network: Parameters<IntelIndex['lookup']>[1]) => {
          if (address === UNREACHABLE) throw fail('backend_unavailable', 'the intelligence index is unreachable');
          if (address === BROKEN) throw new Error('corrupted index segment');
          return real.lookup(address, network);
        },
      });
      return { ...services, deps: { ...services.deps, intel: faulty } };
    },
  });
});
afterAll(() => h?.close());

async function cli(...argv: string[]) {
  const result = await runVerb(h.svc.services, parseArgs(argv));
  expect(result.exitCode).toBe(0);
  return result.output as {
    totals: { payments: number; settled_usd: number; needs_reconciliation: number };
    payments: Record<string, unknown>[];
  };
}

describe('x402: the backend fails after settlement', () => {
  it('answers 500 service_internal_error with the receipt; the payment stays settled and recorded for reconciliation', async () => {
    const payeeBefore = await h.balance(h.payTo);
    const response = await h.payingFetch()(`/screen/ETH/${BROKEN}`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: {
        code: 'service_internal_error',
        message: expect.stringMatching(/after the payment was settled.*not refunded automatically/),
      },
    });
    const receipt = h.receiptOf(response);
    expect(receipt.success).toBe(true);
    expect(await h.balance(h.payTo)).toBe(payeeBefore + 100_000n);

    const listed = await cli('x402', 'payments', '--reconcile');
    expect(listed.payments).toEqual([
      expect.objectContaining({
        status: 'backend_failed',
        failure_code: 'service_internal_error',
        transaction: receipt.transaction,
        payer: h.payer.address.toLowerCase(),
        amount: '100000',
        amount_usd: 0.1,
        product: 'screen',
        resource: `GET /screen/ETH/${BROKEN}`,
        needs_reconciliation: true,
      }),
    ]);
  });

  it('an unreachable backend answers 502 backend_unavailable, also after settlement and with the receipt', async () => {
    const response = await h.payingFetch()(`/screen/ETH/${UNREACHABLE}`);
    expect(response.status).toBe(502);
    expect((await response.json()).error.code).toBe('backend_unavailable');
    expect(h.receiptOf(response).success).toBe(true);
    const events = await h.paymentEvents();
    expect(events.slice(-3)).toEqual(['PaymentReserved', 'PaymentSettled', 'PaidCallFailed']);
  });

  it('`x402 payments` lists every payment with its fate and the settled revenue', async () => {
    expect((await h.payingFetch()(`/screen/ETH/${madeUpEvmAddress('backend-fine')}`)).status).toBe(200);
    const all = await cli('x402', 'payments');
    expect(all.totals).toEqual({ payments: 3, settled_usd: 0.3, needs_reconciliation: 2 });
    expect(all.payments.map((p) => p.status)).toEqual(['served', 'backend_failed', 'backend_failed']);
    expect((await cli('x402', 'payments', '--status', 'served')).payments).toHaveLength(1);
  });
});
