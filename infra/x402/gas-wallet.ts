import { BaseError, encodeFunctionData, keccak256, RpcRequestError, type Abi, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fail, isServiceError } from '../../domain/shared/errors.js';
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

/**
 * Whether a call may still be broadcast, decided in the wallet's queue (one at a time), e.g. that the payer
 * can cover it beside the settlements in flight. `admit` throws CallRefused (or backend_unavailable) to
 * refuse; then exactly one of `sent` (the call is, or may be, on the network) or `dropped` follows.
 */
export interface Admission {
  admit(): Promise<void>;
  sent(hash: Hex): void;
  dropped(): void;
}

export interface GasWallet {
  readonly address: Address;
  /** Admits, simulates, signs and broadcasts; resolves with the transaction hash once the node accepted it. */
  submit(call: ContractCall, admission?: Admission): Promise<Hex>;
  /** The mined receipt's status; rejects `backend_unavailable` (broadcast: true) when it does not come in time. */
  waitForReceipt(hash: Hex): Promise<'success' | 'reverted'>;
}

/**
 * The wallet that pays gas for settlements. Everything that decides a submission runs in one queue, one
 * submission at a time: the admission, gas estimation (which also simulates the call against the state
 * left by the previous submission), the fee lookup (fresh for each transaction: a fee estimated before
 * other settlements were mined can be below the base fee by the time it is sent) and the nonce, so
 * concurrent settlements never race for a nonce nor are decided on state another one is about to change.
 * The hash is computed before broadcasting, so a send whose fate is unknown (a timeout) is still reported
 * with the transaction to reconcile.
 */
export function createGasWallet(options: {
  client: PublicClient;
  privateKey: Hex;
  chainId: number;
  receiptPollMs: number;
  receiptTimeoutMs: number;
}): GasWallet {
  const { client } = options;
  const account = privateKeyToAccount(options.privateKey);
  let nextNonce: number | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  const unreachable = (error: unknown, details: Record<string, unknown>) =>
    fail('backend_unavailable', `the chain RPC failed: ${firstLine(error)}`, details);

  async function prepare(call: ContractCall) {
    const data = encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args } as Parameters<
      typeof encodeFunctionData
    >[0]);
    try {
      const [gas, fees] = await Promise.all([
        client.estimateGas({ account: account.address, to: call.address, data }),
        client.estimateFeesPerGas(),
      ]);
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

  async function submitInTurn(call: ContractCall, admission: Admission | undefined): Promise<Hex> {
    await admission?.admit();
    try {
      const hash = await signAndSend(await prepare(call));
      admission?.sent(hash);
      return hash;
    } catch (error) {
      const details = isServiceError(error) ? (error.details ?? {}) : {};
      if (details.broadcast === true && typeof details.transaction === 'string') admission?.sent(details.transaction as Hex);
      else admission?.dropped();
      throw error;
    }
  }

  return {
    address: account.address,
    async submit(call, admission) {
      const sent = queue.then(() => submitInTurn(call, admission));
      queue = sent.catch(() => undefined);
      return sent;
    },
    async waitForReceipt(hash) {
      try {
        const receipt = await client.waitForTransactionReceipt({
          hash,
          pollingInterval: options.receiptPollMs,
          timeout: options.receiptTimeoutMs,
          retryCount: 0,
        });
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
