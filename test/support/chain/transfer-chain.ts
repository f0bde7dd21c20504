import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, createTestClient, createWalletClient, http, parseAbi, parseEther, type Address, type Hash } from 'viem';
import { devAccount } from './anvil.js';
import { compileContract } from './solc-compile.js';
import { installTestUsdc } from './test-usdc.js';

/**
 * Real transactions on a local anvil chain for the transfer check's tests: native transfers from any
 * address (impersonated and funded, as a sanctioned one would be), ERC-20 transfers of a test token
 * installed at a real token's address, and one transaction moving tokens from several senders through
 * a contract.
 */

const collectorAbi = parseAbi(['function collect(address token, address[] from, uint256[] amounts, address to)']);
const tokenAbi = parseAbi([
  'function transfer(address to, uint256 value) returns (bool)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
]);

export function transferChain(rpcUrl: string) {
  const transport = http(rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ transport });
  const testClient = createTestClient({ mode: 'anvil', transport });
  const mined = async (hash: Hash): Promise<Hash> => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return hash;
  };
  /** A wallet for `from`: one of anvil's own accounts, or any address impersonated and given 100 ETH. */
  async function walletOf(from: Address) {
    await testClient.impersonateAccount({ address: from });
    await testClient.setBalance({ address: from, value: parseEther('100') });
    return createWalletClient({ account: from, transport });
  }

  return {
    publicClient,
    async sendNative(from: Address, to: Address, ether: string): Promise<Hash> {
      const wallet = await walletOf(from);
      return mined(await wallet.sendTransaction({ to, value: parseEther(ether), chain: null }));
    },
    /** Installs the test token (6 decimals) at `token` and mints to the holders. */
    installToken: (token: Address, mints: readonly { to: Address; amount: bigint }[]) => installTestUsdc(rpcUrl, token, mints),
    async sendToken(token: Address, from: Address, to: Address, amount: bigint): Promise<Hash> {
      const wallet = await walletOf(from);
      return mined(
        await wallet.writeContract({ address: token, abi: tokenAbi, functionName: 'transfer', args: [to, amount], chain: null }),
      );
    },
    /** `signer` calls transferFrom(from, to, 0): moving zero tokens needs no allowance (the poisoning trick). */
    async zeroValueTransferFrom(token: Address, signer: Address, from: Address, to: Address): Promise<Hash> {
      const wallet = await walletOf(signer);
      return mined(
        await wallet.writeContract({ address: token, abi: tokenAbi, functionName: 'transferFrom', args: [from, to, 0n], chain: null }),
      );
    },
    /** Deploys the Collector, has every sender approve it, and collects from all of them in ONE transaction. */
    async collect(token: Address, senders: readonly { from: Address; amount: bigint }[], to: Address): Promise<Hash> {
      const deployer = createWalletClient({ account: devAccount(8), transport });
      const bytecode = await compileContract(join(dirname(fileURLToPath(import.meta.url)), 'Collector.sol'), 'Collector');
      const deployed = await publicClient.waitForTransactionReceipt({
        hash: await deployer.deployContract({ abi: collectorAbi, bytecode, chain: null }),
        pollingInterval: 10,
      });
      const collector = deployed.contractAddress!;
      for (const { from, amount } of senders) {
        const wallet = await walletOf(from);
        await mined(
          await wallet.writeContract({ address: token, abi: tokenAbi, functionName: 'approve', args: [collector, amount], chain: null }),
        );
      }
      return mined(
        await deployer.writeContract({
          address: collector,
          abi: collectorAbi,
          functionName: 'collect',
          args: [token, senders.map((s) => s.from), senders.map((s) => s.amount), to],
          chain: null,
        }),
      );
    },
  };
}
