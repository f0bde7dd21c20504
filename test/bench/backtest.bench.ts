import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { backtestJobs } from '../../commands/policies/backtest-jobs.js';
import { TAXONOMY, categoryOf } from '../../domain/intel/taxonomy.js';
import { evaluateFacts, type PolicyFact } from '../../domain/kyt/policy-engine.js';
import type { Policy } from '../../domain/kyt/policy.types.js';
import { STANDARD_POLICY } from '../../domain/kyt/standard-policy.js';
import type { BacktestReport } from '../../domain/policies/backtest.js';
import type { Position } from '../../domain/ports/event-store.port.js';
import type { DocWrite } from '../../domain/ports/read-store.port.js';
import { openLmdbReadStore, type LmdbReadStore } from '../../infra/embedded/lmdb-read-store.js';
import { caseOutcomeReader, caseOutcomesProjection, type CaseOutcomeDoc } from '../../projections/case-outcomes.projection.js';
import { policyInputsProjection, policyInputsRepository, type PolicyInputsDoc } from '../../projections/policy-inputs.projection.js';
import { updateReadme } from '../support/readme-figures.js';

/**
 * bench:backtest — a backtest over BENCH_CHECKS (1,000,000) recorded transfer checks of one subgroup, on
 * the embedded default's on-disk read store (LMDB), through the very code POST /v2/policies/{id}/backtest
 * runs (the job, the read models' repositories, the fold), without HTTP. The candidate is the standard
 * policy with three rules changed (I2 from 5,000 USD, D5 from 500 USD, I4 from any amount); the baseline is
 * the standard policy. The checks are written as the policy-inputs projection writes them: synthetic
 * facts (made-up senders, the taxonomy's categories), the alerts the standard policy raised on them, and a
 * closed case (flagged or dismissed) for one raised check in five.
 *
 * To show that memory does not follow the number of checks, a second subgroup holds a tenth as many and
 * is backtested in the same run: the peak heap over each backtest (sampled every 20 ms, after a GC before
 * it starts) side by side. Prints the figures; `--write-readme` writes them into docs/benchmarks.md.
 */
const CHECKS = Number(process.env.BENCH_CHECKS ?? 1_000_000);
const SMALL = Math.max(1, Math.round(CHECKS / 10));
const BATCH = 10_000;
const DAY = 86_400_000;
const START = Date.parse('2026-01-01T00:00:00.000Z');
const SLUGS = ['sanctions', 'mixer', 'scam', 'gambling', 'stolen_funds', 'darknet_market', 'exchange', 'address_poisoning'];

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heapMb = () => process.memoryUsage().heapUsed / 2 ** 20;

/** A small deterministic generator (mulberry32): the same checks on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function factsOf(next: () => number, i: number): PolicyFact[] {
  const facts = new Map<string, PolicyFact>();
  const count = Math.floor(next() * 4); // 0..3 findings, as most checks have few
  for (let k = 0; k < count; k++) {
    const slug = SLUGS[Math.floor(next() * SLUGS.length)]!;
    const ruleType = slug === 'address_poisoning' ? 'Pattern' : next() < 0.4 ? 'Direct exposure' : 'Origin of funds / Indirect';
    const definition = categoryOf(TAXONOMY, slug)!;
    const sender = `0xbe${i.toString(16).padStart(38, '0')}`;
    facts.set(`${ruleType}|${slug}`, {
      ruleType,
      slug,
      displayName: definition.displayName,
      level: definition.level,
      share: Math.round(next() * 10_000) / 10_000,
      usdMicros: Math.floor(next() * 40_000) * 1_000_000,
      entityName: null,
      anchor: { address: sender, label: null },
      senders: [sender],
    });
  }
  return [...facts.values()];
}

/** Writes `n` checks of `subgroupId`, spread over a year, as the projections would; resolves the next position. */
async function fill(store: LmdbReadStore, subgroupId: string, n: number, seed: number, position: bigint): Promise<bigint> {
  const next = random(seed);
  const span = 360 * DAY;
  let writes: DocWrite[] = [];
  let previous: Position | null = (await store.checkpoint('bench-backtest')) ?? null;
  const flush = async () => {
    const move = { name: 'bench-backtest', next: { commit: position, prepare: position }, previous };
    if ((await store.commit(writes, move)) !== 'ok') throw new Error('the bench checkpoint moved under it');
    previous = move.next;
    writes = [];
  };
  for (let i = 0; i < n; i++) {
    position += 1n;
    const at = { commit: position, prepare: position };
    const checkId = `${subgroupId}-check-${i.toString().padStart(8, '0')}`;
    const facts = factsOf(next, i);
    const outcome = evaluateFacts(STANDARD_POLICY, facts);
    const doc: PolicyInputsDoc = {
      id: checkId,
      subgroup_id: subgroupId,
      checked_at: new Date(START + Math.floor((i / n) * span)).toISOString(),
      policy: { id: 'standard', version: STANDARD_POLICY.version },
      facts,
      raised: outcome.alerts.map((alert, k) => ({
        ruleId: outcome.matches[k]!.ruleId,
        slug: outcome.matches[k]!.categorySlug,
        ruleType: alert.ruleType,
        level: alert.riskLevel,
      })),
    };
    writes.push({ collection: policyInputsProjection.collection, id: checkId, doc, position: at });
    if (doc.raised.length > 0 && next() < 0.2) {
      const outcomeDoc: CaseOutcomeDoc = {
        id: `${checkId}-case-0`,
        check_id: checkId,
        alert_index: 0,
        reason: next() < 0.5 ? 'flagged' : 'dismissed',
      };
      writes.push({ collection: caseOutcomesProjection.collection, id: outcomeDoc.id, doc: outcomeDoc, position: at });
    }
    if (writes.length >= BATCH) await flush();
  }
  if (writes.length > 0) await flush();
  return position;
}

const CANDIDATE: Policy = {
  ...STANDARD_POLICY,
  name: 'tuned',
  version: 'draft',
  rules: STANDARD_POLICY.rules.map((rule) => {
    if (rule.id === 'I2') return { ...rule, minUsd: 5_000 };
    if (rule.id === 'D5') return { ...rule, minUsd: 500 };
    if (rule.id === 'I4') return { ...rule, minUsd: 0 };
    return rule;
  }),
};

async function backtest(store: LmdbReadStore, subgroupId: string) {
  const checks = { ...policyInputsRepository(store), outcomesOf: caseOutcomeReader(store) };
  let id = 0;
  const jobs = backtestJobs({
    checks,
    ids: { newId: () => `bench-${(id += 1)}`, eventId: (commandId: string, index: number) => `${commandId}-${index}` },
    clock: { now: () => new Date() },
  });
  gc();
  gc();
  const heapBefore = heapMb();
  let peak = heapBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, heapMb())), 20);
  const started = performance.now();
  const job = jobs.start({
    subgroupId,
    policyId: 'bench',
    candidate: CANDIDATE,
    baseline: { policyId: 'standard', policy: STANDARD_POLICY },
    from: new Date(START).toISOString(),
    to: new Date(START + 400 * DAY).toISOString(),
  });
  await job.done;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, heapMb());
  if (job.status !== 'completed') throw new Error(`the backtest ${job.status}: ${job.error}`);
  const report = job.report as BacktestReport;
  return { checks: report.checks, seconds, checksPerSecond: Math.round(report.checks / seconds), heapPeakMb: peak - heapBefore, report };
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'bench-backtest-'));
  const store = await openLmdbReadStore(join(dir, 'read-models'));
  try {
    const loadBefore = loadavg()[0]!;
    const filling = performance.now();
    const position = await fill(store, 'large', CHECKS, 1, 0n);
    await fill(store, 'small', SMALL, 2, position);
    process.stderr.write(`${CHECKS + SMALL} checks written in ${((performance.now() - filling) / 1000).toFixed(1)} s\n`);
    const small = await backtest(store, 'small');
    const large = await backtest(store, 'large');
    const loadAfter = loadavg()[0]!;
    const r = large.report;
    const figures = {
      checks: { large: large.checks, small: small.checks },
      seconds: { large: Number(large.seconds.toFixed(1)), small: Number(small.seconds.toFixed(1)) },
      checks_per_second: { large: large.checksPerSecond, small: small.checksPerSecond },
      heap_peak_mb_over_the_backtest: { large: Number(large.heapPeakMb.toFixed(1)), small: Number(small.heapPeakMb.toFixed(1)) },
      large_report: {
        candidate_alerts: r.candidate.alerts,
        baseline_alerts: r.baseline.alerts,
        versus_baseline: r.versusBaseline,
        versus_raised: r.versusRaised,
        analyst_outcomes: r.analystOutcomes,
      },
      load_average_1m: { before: Number(loadBefore.toFixed(2)), after: Number(loadAfter.toFixed(2)) },
    };
    console.log(JSON.stringify(figures, null, 2));
    if (JSON.stringify(r.versusRaised) !== JSON.stringify(r.versusBaseline) || r.baseline.alerts !== r.raised.alerts)
      throw new Error('the standard policy, backtested, did not reproduce what the checks raised');
    await updateReadme(
      'bench:backtest',
      [
        `Measured by \`npm run bench:backtest\` on ${new Date().toISOString().slice(0, 10)} at load average ${loadBefore.toFixed(1)}–${loadAfter.toFixed(1)} (2 cores, shared). The candidate is the standard policy with three rules changed; the checks are on the embedded read store (LMDB), read a page of 500 at a time.`,
        '',
        '| recorded checks in the subgroup | time to the full report | checks per second | peak heap over the backtest | candidate vs active: new / lost / changed level |',
        '|---|---|---|---|---|',
        `| ${small.checks.toLocaleString('en')} | ${small.seconds.toFixed(1)} s | ${small.checksPerSecond.toLocaleString('en')} | +${small.heapPeakMb.toFixed(1)} MB | ${small.report.versusBaseline.new} / ${small.report.versusBaseline.lost} / ${small.report.versusBaseline.changedLevel} |`,
        `| ${large.checks.toLocaleString('en')} | ${large.seconds.toFixed(1)} s | ${large.checksPerSecond.toLocaleString('en')} | +${large.heapPeakMb.toFixed(1)} MB | ${r.versusBaseline.new} / ${r.versusBaseline.lost} / ${r.versusBaseline.changedLevel} |`,
      ].join('\n'),
    );
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
