import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, createTestClient, createWalletClient, http, parseAbi, type Address, type Hex } from 'viem';
import { devAccount } from './anvil.js';

const SOURCE = join(dirname(fileURLToPath(import.meta.url)), 'TestUSDC.sol');
/** Compiled once per source version; solc-js takes ~2 s, the cached bytecode a millisecond. */
const CACHE_DIR = 'node_modules/.cache/svc-test-usdc';

export const testUsdcAbi = parseAbi([
  'function mint(address to, uint256 value)',
  'function balanceOf(address owner) view returns (uint256)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function name() view returns (string)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
]);

/** The runtime bytecode of TestUSDC.sol (what anvil_setCode installs), compiled with solc-js. */
export async function testUsdcRuntimeCode(): Promise<Hex> {
  const source = await readFile(SOURCE, 'utf8');
  const cacheFile = join(CACHE_DIR, `${createHash('sha256').update(source).digest('hex').slice(0, 16)}.hex`);
  try {
    return (await readFile(cacheFile, 'utf8')) as Hex;
  } catch {
    // not compiled yet
  }
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string };
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'TestUSDC.sol': { content: source } },
        settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['evm.deployedBytecode.object'] } } },
      }),
    ),
  ) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const code = `0x${output.contracts['TestUSDC.sol']!.TestUSDC!.evm.deployedBytecode.object}` as Hex;
  await mkdir(CACHE_DIR, { recursive: true });
  await writeFile(cacheFile, code);
  return code;
}

/** Installs TestUSDC at `address` (the network's real USDC address) and mints to the given holders. */
export async function installTestUsdc(
  rpcUrl: string,
  address: Address,
  mints: readonly { to: Address; amount: bigint }[] = [],
): Promise<void> {
  const transport = http(rpcUrl, { retryCount: 0 });
  await createTestClient({ mode: 'anvil', transport }).setCode({ address, bytecode: await testUsdcRuntimeCode() });
  const publicClient = createPublicClient({ transport });
  const minter = createWalletClient({ account: devAccount(9), transport });
  for (const { to, amount } of mints) {
    const hash = await minter.writeContract({ address, abi: testUsdcAbi, functionName: 'mint', args: [to, amount], chain: null });
    await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  }
}

export async function usdcBalance(rpcUrl: string, token: Address, owner: Address): Promise<bigint> {
  const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
  return client.readContract({ address: token, abi: testUsdcAbi, functionName: 'balanceOf', args: [owner] });
}
