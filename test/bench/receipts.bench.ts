import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompactSign, importJWK } from 'jose';
import { canonicalJson } from '../../domain/receipts/canonical-json.js';
import { screenStatement } from '../../domain/receipts/verdict-statements.js';
import type { VerdictStatement } from '../../domain/receipts/verdict-statement.js';
import { Ed25519VerdictSigner, RECEIPT_CONTENT_TYPE } from '../../infra/receipts/ed25519-verdict-signer.js';
import { activeKeyOf, keyRingSchema } from '../../infra/receipts/receipt-key-ring.js';
import { verifyReceipt } from '../../infra/receipts/verify-receipt.js';
import { updateReadme } from '../support/readme-figures.js';

/**
 * bench:receipts — what one verdict receipt costs, side by side in one process: the statement and its
 * RFC 8785 encoding alone; the receipt signed with jose's CompactSign (WebCrypto, as first shipped); and
 * signed as the service signs it now (node:crypto on a cached KeyObject, the header encoded once). Rounds
 * alternate between the ways, so the machine's swings fall on each alike; medians of the rounds. CPU is the
 * process's (all threads: WebCrypto signs on the thread pool), wall is what the awaiting caller waits.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PER_ROUND = Number(process.env.BENCH_SIGNATURES ?? 2_000);

let n = 0;
/** A light screen's statement as the service makes it, a new verdict id and time each call (no two alike). */
const nextStatement = (): VerdictStatement => {
  const issuedAt = new Date(Date.UTC(2026, 10, 28) + n).toISOString();
  const subject = { address: `0x${(++n).toString(16).padStart(40, '0')}`, network: 'ETH' };
  return screenStatement({ verdictId: `call-${n}`, caller: { kind: 'api_key', id: 'key-1' }, input: subject, issuedAt }, subject, {
    verdict: { risk_level: 'low', risk_score: 0, risk_categories: [], sdn_match: null },
    coverage: {
      data_versions: {
        taxonomy: 'taxonomy-v3',
        snapshot: 'snapshot-42',
        sources: [
          { source: 'ofac_sdn', version: '2026-11-27', content_hash: 'a'.repeat(64) },
          { source: 'consensus', version: '2026-11-20', content_hash: 'b'.repeat(64) },
        ],
      },
    },
  } as never);
};

async function micros(run: () => Promise<unknown> | unknown): Promise<{ cpu: number; wall: number }> {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let i = 0; i < PER_ROUND; i++) await run();
  const wall = Number(process.hrtime.bigint() - started) / 1e3 / PER_ROUND;
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / PER_ROUND, wall };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'bench-receipts-'));
  const path = join(dir, 'receipt-keys.json');
  const signer = await Ed25519VerdictSigner.open(path, new Date());
  const { kid, jwk } = activeKeyOf(keyRingSchema.parse(JSON.parse(await readFile(path, 'utf8'))));
  const joseKey = await importJWK({ ...jwk, alg: 'EdDSA' }, 'EdDSA');
  const ways: Record<string, () => Promise<unknown> | unknown> = {
    'statement + RFC 8785 encoding, no signature': () => canonicalJson(nextStatement()),
    'receipt with jose CompactSign (as first shipped)': () =>
      new CompactSign(new TextEncoder().encode(canonicalJson(nextStatement())))
        .setProtectedHeader({ alg: 'EdDSA', kid, cty: RECEIPT_CONTENT_TYPE })
        .sign(joseKey),
    'receipt with node:crypto, cached key and header (now)': () => signer.sign(nextStatement()),
  };
  const sample = await signer.sign(nextStatement());
  if (!(await verifyReceipt(sample, signer.jwks())).valid) throw new Error('the receipt signed here does not verify');
  const figures = new Map(Object.keys(ways).map((name) => [name, { cpu: [] as number[], wall: [] as number[] }]));
  for (const run of Object.values(ways)) await micros(run); // warm-up
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, run] of Object.entries(ways)) {
      const { cpu, wall } = await micros(run);
      figures.get(name)!.cpu.push(cpu);
      figures.get(name)!.wall.push(wall);
    }
  await rm(dir, { recursive: true, force: true });

  const rows = [...figures].map(([name, f]) => ({ name, cpu: median(f.cpu), wall: median(f.wall) }));
  const [encode, jose, now] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
  const table = [
    `Measured by \`npm run bench:receipts\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${ROUNDS} alternating rounds of ${PER_ROUND} light-screen receipts each, one after another, medians; load average ${loadavg()[0]?.toFixed(2) ?? '?'}; receipt ${sample.length} bytes):`,
    '',
    '| per verdict | CPU µs (all threads) | wall µs |',
    '|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.cpu.toFixed(1)} | ${r.wall.toFixed(1)} |`),
    '',
    `The signature itself (receipt minus encoding), jose / now: ${((jose.cpu - encode.cpu) / Math.max(0.1, now.cpu - encode.cpu)).toFixed(2)}× the CPU, ${((jose.wall - encode.wall) / Math.max(0.1, now.wall - encode.wall)).toFixed(2)}× the wall time.`,
  ].join('\n');
  process.stdout.write(`${table}\n`);
  await updateReadme('bench:receipts', table);
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
