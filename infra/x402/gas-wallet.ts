import { BaseError, encodeFunctionData, keccak256, RpcRequestError, type Abi, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fail } from '../../domain/shared/errors.js';
import { firstLine } from './chain-reader.js';

/** The contract call to submit, as viem's encodeFunctionData takes it. */
export interface ContractCall {
  readonly address: Address;
  readonly abi: Abi;
  readonly functionName: string;
  readonly args: readonly unknown[];
}

/** The node's simulation refused the call (a revert): nothing was broadcast. */
export class CallRefused extends Error {}

export interface GasWallet {
  readonly address: Address;
  /** Simulates, signs and broadcasts; resolves with the transaction hash once the node accepted it. */
  submit(call: ContractCall): Promise<Hex>;
  /** The mined receipt's status; rejects `backend_unavailable` (broadcast: true) when it does not come in time. */
  waitForReceipt(hash: Hex): Promise<'success' | 'reverted'>;
}

/**
 * The wallet that pays gas for settlements. Its transaction nonces are assigned here, one submission at
 * a time, so concurrent settlements never race for a nonce; gas estimation (which also simulates the
 * call) and fee lookup run outside that queue. The hash is computed before broadcasting, so a send whose
 * fate is unknown (a timeout) is still reported with the transaction to reconcile.
 */
export function createGasWallet(options: { client: PublicClient; privateKey: Hex; chainId: number; receiptPollMs: number; receiptTimeoutMs: number }): GasWallet {
  const { client } = options;
  const account = privateKeyToAccount(options.privateKey);
  let nextNonce: number | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  const unreachable = (error: unknown, details: Record<string, unknown>) =>
    fail('backend_unavailable', `the chain RPC failed: ${firstLine(error)}`, details);

  async function prepare(call: ContractCall) {
    const data = encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args } as Parameters<typeof encodeFunctionData>[0]);
    try {
      const [gas, fees] = await Promise.all([client.estimateGas({ account: account.address, to: call.address, data }), client.estimateFeesPerGas()]);
      return { to: call.address, data, gas, ...fees };
    } catch (error) {
      if (isRevert(error)) throw new CallRefused(firstLine(error));
      throw unreachable(error, { broadcast: false });
    }
  }

  async function signAndSend(prepared: Awaited<ReturnType<typeof prepare>>): Promise<Hex> {
    try {
      nextNonce ??= await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
    } catch (error) {
      throw unreachable(error, { broadcast: false });
    }
    const nonce = nextNonce;
    const serialized = await account.signTransaction({ ...prepared, type: 'eip1559', chainId: options.chainId, nonce });
    const hash = keccak256(serialized);
    try {
      await client.sendRawTransaction({ serializedTransaction: serialized });
      nextNonce = nonce + 1;
      return hash;
    } catch (error) {
      nextNonce = null; // re-read from the chain: the node may or may not have taken this nonce
      // A JSON-RPC error is the node's refusal; anything else (a timeout) may have reached the network.
      const refused = error instanceof BaseError && error.walk((e) => e instanceof RpcRequestError) !== null;
      throw unreachable(error, { broadcast: !refused, transaction: refused ? null : hash });
    }
  }

  return {
    address: account.address,
    async submit(call) {
      const prepared = await prepare(call);
      const sent = queue.then(() => signAndSend(prepared));
      queue = sent.catch(() => undefined);
      return sent;
    },
    async waitForReceipt(hash) {
      try {
        const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: options.receiptPollMs, timeout: options.receiptTimeoutMs, retryCount: 0 });
        return receipt.status;
      } catch (error) {
        throw unreachable(error, { broadcast: true, transaction: hash });
      }
    },
  };
}

function isRevert(error: unknown): boolean {
  return error instanceof BaseError && /revert/i.test(`${error.shortMessage} ${error.details ?? ''}`);
}
