import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import type { Hex } from 'viem';

/** Compiled bytecode is cached per source: solc-js takes seconds, the cache a millisecond. */
const CACHE_DIR = 'node_modules/.cache/svc-solc';

/** The creation bytecode of `contract` in the Solidity file `sourcePath`, compiled with solc-js (optimized). */
export async function compileContract(sourcePath: string, contract: string): Promise<Hex> {
  const source = await readFile(sourcePath, 'utf8');
  const file = basename(sourcePath);
  const cacheFile = join(CACHE_DIR, `${contract}-${createHash('sha256').update(source).digest('hex').slice(0, 16)}.hex`);
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
        sources: { [file]: { content: source } },
        settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
      }),
    ),
  ) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const code = `0x${output.contracts[file]![contract]!.evm.bytecode.object}` as Hex;
  await mkdir(CACHE_DIR, { recursive: true });
  await writeFile(cacheFile, code);
  return code;
}
