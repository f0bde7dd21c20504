import { createTestClient, http, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startAnvil, type Anvil } from '../support/chain/anvil.js';
import { transferChain } from '../support/chain/transfer-chain.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * A reorganisation within the confirmation window, on a real local chain (anvil): a transfer is read and
 * folded, the chain is rolled back (evm_revert) and grows another way past the old head, and the next
 * sync finds the fork, publishes the revert and reads the new blocks: the graph holds the new transfer and
 * nothing of the orphaned one.
 */
const party = (name: string) => madeUpEvmAddress(`graph-reorg:${name}`) as Address;
const [payer, orphanedPayee, newPayee] = ['payer', 'orphaned', 'new'].map(party) as [Address, Address, Address];

let anvil: Anvil;
let svc: TestService;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337 });
  svc = await startTestService({
    SVC_INGEST_RPC_URL: anvil.rpcUrl,
    SVC_INGEST_POLL_MS: '3600000',
    SVC_INGEST_CONFIRMATIONS: '6',
  });
}, 60_000);
afterAll(async () => {
  await svc?.close();
  await anvil?.stop();
});

describe('a reorganisation within the confirmation window', () => {
  it('is undone: the orphaned transfer leaves the graph, the new branch is folded', async () => {
    const chain = transferChain(anvil.rpcUrl);
    const test = createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) });
    const { ingester, graph } = svc.services.fullCheck;
    await chain.sendNative(payer, newPayee, '1');
    const fork = await test.snapshot();
    await chain.sendNative(payer, orphanedPayee, '2');
    await ingester!.syncOnce();
    await svc.services.fullCheck.whenCaughtUp();
    expect(await graph.activity(orphanedPayee, 'ETH')).toMatchObject({ incoming: { transfers: 1 } });

    await test.revert({ id: fork });
    await chain.sendNative(payer, newPayee, '3');
    await test.mine({ blocks: 3 });
    await ingester!.syncOnce();
    await svc.services.fullCheck.whenCaughtUp();

    expect(await graph.activity(orphanedPayee, 'ETH')).toBeNull();
    expect(await graph.activity(newPayee, 'ETH')).toMatchObject({ incoming: { transfers: 2, counterparties: 1 } });
    expect((await graph.activity(payer, 'ETH'))?.outgoing).toMatchObject({ transfers: 2, counterparties: 1 });
    expect(await graph.size('ETH')).toBe(2);
  });
});
