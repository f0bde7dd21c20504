import type { AddressInfo } from 'node:net';
import { x402Client, x402HTTPClient, wrapFetchWithPayment } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import type { FastifyInstance } from 'fastify';
import { toHex, type Address, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { X402_NETWORKS } from '../../domain/x402/x402-networks.js';
import { buildX402App } from '../../read-api/x402/x402-app.js';
import type { X402AppServices } from '../../read-api/x402/x402-services.js';
import { devAccount, startAnvil, type Anvil } from './chain/anvil.js';
import { installTestUsdc, usdcBalance } from './chain/test-usdc.js';
import { startTestService, type TestService } from './test-service.js';

/** The network under test: Base Sepolia, on a local anvil with its chain id and USDC at the real address. */
export const NETWORK = X402_NETWORKS['base-sepolia'];
export const USDC = NETWORK.asset;

/** What a test can tamper with between the 402 and the client's signature. */
export type QuoteTamper = (quote: Record<string, unknown> & { accepts: Record<string, unknown>[] }) => unknown;

export interface X402Harness {
  readonly anvil: Anvil;
  readonly svc: TestService;
  readonly x402: FastifyInstance;
  readonly url: string;
  /** A funded payer (10 USDC) and the collecting wallet (0 USDC). */
  readonly payer: LocalAccount;
  readonly payTo: Address;
  /** The real @x402/fetch client paying as `account` (paths are on this app, or absolute URLs); the payment headers it sent are kept in `sent`. */
  payingFetch(account?: LocalAccount, options?: { tamper?: QuoteTamper; spendControls?: false }): PayingFetch;
  receiptOf(response: Response): { success: boolean; transaction: string; network: string; payer?: string };
  balance(owner: Address): Promise<bigint>;
  /** Types of every event on the x402 payment streams, in order. */
  paymentEvents(): Promise<string[]>;
  close(): Promise<void>;
}

export type PayingFetch = ((path: string, init?: RequestInit) => Promise<Response>) & { readonly sent: string[] };

/**
 * anvil (chain id 84532) with the test EIP-3009 token at the Base Sepolia USDC address, a whole service
 * configured for it (local facilitator, gas wallet = anvil account 1), and its x402 app on a loopback port.
 */
export async function startX402Harness(
  options: {
    env?: Record<string, string>;
    /** Settings that need the chain first (e.g. a facilitator running on it). */
    lateEnv?: (anvil: Anvil) => Promise<Record<string, string>>;
    /** Changes the x402 app's services (a fault to inject). */
    services?: (services: X402AppServices) => X402AppServices;
    /** 'none': the service never imported a sanctions list (see startTestService). */
    sanctions?: 'minimal' | 'none';
  } = {},
): Promise<X402Harness> {
  const anvil = await startAnvil({ chainId: NETWORK.chainId });
  const payer = privateKeyToAccount(generatePrivateKey());
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  await installTestUsdc(anvil.rpcUrl, USDC, [{ to: payer.address, amount: 10_000_000n }]);
  const svc = await startTestService(
    {
      X402_PAY_TO: payTo,
      X402_NETWORK: 'base-sepolia',
      X402_RPC_URL: anvil.rpcUrl,
      X402_GAS_WALLET_KEY: toHex(devAccount(1).getHdKey().privateKey!),
      X402_RECEIPT_POLL_MS: '5',
      X402_PAID_CALLS_PER_MINUTE: '100000',
      X402_FREE_CALLS_PER_MINUTE: '100000',
      ...options.env,
      ...(await options.lateEnv?.(anvil)),
    },
    undefined,
    undefined,
    options.sanctions ? { sanctions: options.sanctions } : {},
  );
  const services = options.services ? options.services(svc.services.x402.app!) : svc.services.x402.app!;
  const x402 = await buildX402App(services);
  await x402.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(x402.server.address() as AddressInfo).port}`;

  return {
    anvil,
    svc,
    x402,
    url,
    payer,
    payTo,
    payingFetch: payingFetchOf(url, payer),
    receiptOf(response) {
      return new x402HTTPClient(new x402Client()).getPaymentSettleResponse((name) => response.headers.get(name));
    },
    balance: (owner) => usdcBalance(anvil.rpcUrl, USDC, owner),
    async paymentEvents() {
      const types: string[] = [];
      for await (const event of svc.services.store.readAll()) if (event.streamId.startsWith('x402-')) types.push(event.type);
      return types;
    },
    async close() {
      await x402.close();
      await svc.close();
      await anvil.stop();
    },
  };
}

/** A fetch that pays the harness's x402 app as `account` (the harness's payer by default). */
function payingFetchOf(url: string, payer: LocalAccount): X402Harness['payingFetch'] {
  return (account = payer, fetchOptions = {}) => {
    const sent: string[] = [];
    const inner: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const header = request.headers.get('payment-signature') ?? request.headers.get('x-payment');
      if (header) sent.push(header);
      const response = await fetch(request);
      const quote = response.headers.get('payment-required');
      if (response.status !== 402 || !quote || !fetchOptions.tamper) return response;
      const tampered = fetchOptions.tamper(JSON.parse(Buffer.from(quote, 'base64').toString('utf8')));
      const headers = new Headers(response.headers);
      headers.set('payment-required', Buffer.from(JSON.stringify(tampered)).toString('base64'));
      return new Response(await response.text(), { status: 402, headers });
    };
    const client = new x402Client().register('eip155:*', new ExactEvmScheme(account));
    if (fetchOptions.spendControls === false) client.setSpendControls(false);
    const paying = wrapFetchWithPayment(inner, client);
    return Object.assign((path: string, init?: RequestInit) => paying(path.startsWith('http') ? path : `${url}${path}`, init), { sent });
  };
}
