import { spawn, type ChildProcess } from 'node:child_process';
import { createPublicClient, http } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { freePort } from '../processes.js';

/** anvil's well-known development mnemonic: its accounts are funded with test ether on every start. */
const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

export const devAccount = (index: number) => mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });

export interface Anvil {
  readonly rpcUrl: string;
  readonly chainId: number;
  stop(): Promise<void>;
}

/**
 * A local EVM chain (the `anvil` binary of @foundry-rs/anvil-linux-amd64) on a free loopback port,
 * mining each transaction as it arrives. Ready once it answers eth_chainId (bounded polling).
 */
export async function startAnvil(options: { chainId: number }): Promise<Anvil> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'node_modules/.bin/anvil',
    ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(options.chainId), '--silent'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const rpcUrl = `http://127.0.0.1:${port}`;
  const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  for (let attempt = 0; attempt < 400; attempt++) {
    if (child.exitCode !== null) throw new Error(`anvil exited with ${child.exitCode}: ${stderr.join('')}`);
    try {
      if ((await client.getChainId()) === options.chainId) return { rpcUrl, chainId: options.chainId, stop };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  await stop();
  throw new Error(`anvil did not answer on ${rpcUrl} within 10 s: ${stderr.join('')}`);
}
