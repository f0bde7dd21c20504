import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { x402Facilitator } from '@x402/core/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { createWalletClient, defineChain, http, publicActions, type LocalAccount } from 'viem';

/**
 * The reference x402 facilitator (@x402/core x402Facilitator with @x402/evm's exact scheme), served over
 * HTTP on a loopback port with the documented /verify, /settle and /supported: what a hosted facilitator
 * runs, settling on the given chain from `account`.
 */
export async function startReferenceFacilitator(options: {
  rpcUrl: string;
  chainId: number;
  account: LocalAccount;
}): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const chain = defineChain({
    id: options.chainId,
    name: 'local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  const client = createWalletClient({ account: options.account, chain, transport: http(options.rpcUrl) }).extend(publicActions);
  const signer = toFacilitatorEvmSigner({ ...client, address: options.account.address } as unknown as Parameters<
    typeof toFacilitatorEvmSigner
  >[0]);
  const facilitator = new x402Facilitator().register(`eip155:${options.chainId}`, new ExactEvmScheme(signer));
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', async () => {
      requests.push(`${request.method} ${request.url}`);
      try {
        const body = text ? (JSON.parse(text) as { paymentPayload: never; paymentRequirements: never }) : null;
        const answer =
          request.url === '/verify'
            ? await facilitator.verify(body!.paymentPayload, body!.paymentRequirements)
            : request.url === '/settle'
              ? await facilitator.settle(body!.paymentPayload, body!.paymentRequirements)
              : request.url === '/supported'
                ? facilitator.getSupported()
                : null;
        response
          .writeHead(answer ? 200 : 404, { 'content-type': 'application/json' })
          .end(JSON.stringify(answer ?? { error: 'not found' }));
      } catch (error) {
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
