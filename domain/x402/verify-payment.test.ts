import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../../test/helpers/made-up-addresses.js';
import { signPayment } from '../../test/support/x402-payloads.js';
import { isServiceError } from '../shared/errors.js';
import { verifyPaymentLocally } from './verify-payment.js';
import { X402_NETWORKS, type X402Terms } from './x402-networks.js';
import { decodePaymentHeader, encodeHeaderJson } from './x402-wire.js';

const payer = privateKeyToAccount(generatePrivateKey());
const terms: X402Terms = {
  network: X402_NETWORKS['base-sepolia'],
  payTo: madeUpEvmAddress('payee') as `0x${string}`,
  maxTimeoutSeconds: 300,
};
const NOW = 1_800_000_000;
const verify = (payment: Awaited<ReturnType<typeof signPayment>>) =>
  verifyPaymentLocally(payment, { terms, priceMicros: 100_000, nowSeconds: NOW });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'accepted';
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return error.code;
  }
}

describe('local verification of a payment proof against our own terms', () => {
  it('accepts an exact, well-signed, timely authorization and names its payer', async () => {
    const verified = await verify(await signPayment(payer, terms, { nowSeconds: NOW }));
    expect(verified.payer).toBe(payer.address);
    expect(verified.amount).toBe(100_000n);
  });

  it('refuses a signature under another EIP-712 domain (name of Base mainnet, another chain id): payment_invalid', async () => {
    expect(await codeOf(verify(await signPayment(payer, terms, { nowSeconds: NOW, domainName: 'USD Coin' })))).toBe('payment_invalid');
    expect(await codeOf(verify(await signPayment(payer, terms, { nowSeconds: NOW, chainId: 8453 })))).toBe('payment_invalid');
  });

  it('refuses another recipient, a network or asset we do not take, and an overpayment: payment_invalid', async () => {
    expect(await codeOf(verify(await signPayment(payer, terms, { nowSeconds: NOW, to: madeUpEvmAddress('thief') as `0x${string}` })))).toBe(
      'payment_invalid',
    );
    const proof = await signPayment(payer, terms, { nowSeconds: NOW });
    expect(await codeOf(verify({ ...proof, accepted: { ...proof.accepted, network: 'eip155:8453' } }))).toBe('payment_invalid');
    expect(await codeOf(verify({ ...proof, accepted: { ...proof.accepted, asset: madeUpEvmAddress('token') } }))).toBe('payment_invalid');
    expect(await codeOf(verify({ ...proof, accepted: { ...proof.accepted, scheme: 'upto' } }))).toBe('payment_invalid');
    expect(await codeOf(verify(await signPayment(payer, terms, { nowSeconds: NOW, value: 100_001n })))).toBe('payment_invalid');
  });

  it('refuses less than the price: payment_underpaid', async () => {
    expect(await codeOf(verify(await signPayment(payer, terms, { nowSeconds: NOW, value: 99_999n })))).toBe('payment_underpaid');
  });

  it('validBefore: past or within the settlement slack is payment_expired; beyond maxTimeoutSeconds plus skew is payment_invalid', async () => {
    const at = (validBefore: number) => signPayment(payer, terms, { nowSeconds: NOW, validBefore: BigInt(validBefore) }).then(verify);
    expect(await codeOf(at(NOW - 1))).toBe('payment_expired');
    expect(await codeOf(at(NOW))).toBe('payment_expired');
    expect(await codeOf(at(NOW + 5))).toBe('payment_expired');
    expect(await codeOf(at(NOW + 6))).toBe('accepted');
    expect(await codeOf(at(NOW + 300 + 60))).toBe('accepted');
    expect(await codeOf(at(NOW + 300 + 61))).toBe('payment_invalid');
  });

  it('refuses an authorization that is not valid yet', async () => {
    expect(await codeOf(verify(await signPayment(payer, terms, { nowSeconds: NOW, validAfter: BigInt(NOW + 10) })))).toBe(
      'payment_invalid',
    );
  });

  it('round-trips through the header encoding, and refuses malformed headers with payment_invalid', async () => {
    const proof = await signPayment(payer, terms, { nowSeconds: NOW });
    expect(decodePaymentHeader(encodeHeaderJson(proof))).toEqual(proof);
    for (const bad of [
      '',
      'not base64!',
      'YQ',
      encodeHeaderJson([1, 2]),
      encodeHeaderJson({ ...proof, x402Version: 1 }),
      encodeHeaderJson({ ...proof, payload: { signature: 'xyz' } }),
    ]) {
      expect(() => decodePaymentHeader(bad), bad).toThrow(expect.objectContaining({ code: 'payment_invalid' }));
    }
  });
});
