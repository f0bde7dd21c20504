import { randomUUID } from 'node:crypto';
import { transferCheckStream, transferCheckStreams } from '../../domain/kyt/transfer-check.events.js';
import type { EventData } from '../../domain/ports/event-store.port.js';
import type { Services } from '../../infra/bootstrap.js';
import { importAndTime, scamClaim, watchChanges } from './flagging-imports.js';
import { eventRegistry } from '../../domain/events/registry.js';
import { present } from '../../domain/shared/present.js';
import { transferVerdictFixture } from '../support/transfer-verdict-fixture.js';

/**
 * bench:monitoring's retroactive path: `checks` past V2 transfer checks of one subgroup (each a made-up
 * sender who sent 50,000 USD, nobody flagged), appended as the very TransferCheckRequested and
 * TransferCheckCompleted events the transfer check writes; then `rounds` imports of a synthetic source,
 * each flagging (scam) 50 senders of those checks and 10,000 addresses of no check. Measures, per import,
 * the time from its commit to the 50th TransferCheckReevaluated of that import appended (the standard
 * policy's D3 alerts on each: a direct scam exposure of 50,000 USD), seen on a live `$all` subscription.
 */
const TOUCHED = 50;
const UNRELATED = 10_000;
const APPEND_CONCURRENCY = 1000;
const SUBGROUP = 'bench-retroactive-subgroup';

const senderOf = (i: number) => `0x3${i.toString(16).padStart(39, '0')}`;
const unrelatedOf = (round: number, i: number) => `0x4${round.toString(16).padStart(9, '0')}${i.toString(16).padStart(30, '0')}`;
const checkIdOf = (i: number) => `0193e000-0000-7000-8000-${i.toString(16).padStart(12, '0')}`;
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

function pastCheck(i: number, at: string): EventData[] {
  const checkId = checkIdOf(i);
  const txHash = `0x${i.toString(16).padStart(64, '0')}`;
  const metadata = { correlationId: 'bench-retroactive', occurredAt: at, schemaVersion: 1 };
  const requester = { channel: 'v2', userId: 'bench-retroactive-user', keyId: 'bench-retroactive-key', subgroupId: SUBGROUP };
  // One sender of 50 000 USD, no finding: what a re-evaluation reads of a past check.
  const made = transferVerdictFixture({ checkId, txHash, checkedAt: at });
  const [sender] = made.composite.senders;
  const senders = [{ ...present(sender, 'the fixture has a sender'), address: senderOf(i), usdMicros: 50_000_000_000 }];
  const verdict = { ...made, composite: { ...made.composite, senders } };
  return [
    { id: randomUUID(), type: 'TransferCheckRequested', data: { checkId, chain: 'ETH', txHash, requester, at }, metadata },
    {
      id: randomUUID(),
      type: 'TransferCheckCompleted',
      data: { checkId, verdict, worstLevel: null, alertCount: 0, facts: [], at },
      metadata: { ...metadata, schemaVersion: eventRegistry.versionOf('TransferCheckCompleted') },
    },
  ];
}

async function appendPastChecks(services: Services, checks: number): Promise<number> {
  const started = performance.now();
  const at = new Date().toISOString();
  for (let from = 0; from < checks; from += APPEND_CONCURRENCY) {
    const appends: Promise<unknown>[] = [];
    for (let i = from; i < Math.min(checks, from + APPEND_CONCURRENCY); i++)
      appends.push(services.store.append(transferCheckStream(checkIdOf(i)), pastCheck(i, at), { expected: 'no_stream' }));
    await Promise.all(appends);
    if ((from + APPEND_CONCURRENCY) % 100_000 === 0) process.stderr.write(`${from + APPEND_CONCURRENCY} past checks appended\n`);
  }
  process.stderr.write('projecting and indexing them\n');
  await services.whenCaughtUp();
  return (performance.now() - started) / 1000;
}

/** Each import flags senders no earlier import flagged (a prime stride: distinct while rounds × 50 < checks), so each raises 50 new alerts. */
function importOf(round: number, checks: number) {
  const at = new Date().toISOString();
  const source = `bench_retro_feed_${round}`;
  const claims = [
    ...Array.from({ length: TOUCHED }, (_, i) => scamClaim(senderOf(((round * TOUCHED + i) * 104_729) % checks), source, at)),
    ...Array.from({ length: UNRELATED }, (_, i) => scamClaim(unrelatedOf(round, i), source, at)),
  ];
  return { source, at, claims, expected: TOUCHED };
}

/** Runs the retroactive path and returns its figures (printed by the caller). */
export async function retroactivePhase(services: Services, checks: number, rounds: number) {
  const populateSeconds = await appendPastChecks(services, checks);
  const abort = new AbortController();
  const { seen, done } = watchChanges(services, { prefix: transferCheckStreams.prefix, type: 'TransferCheckReevaluated' }, abort.signal);
  const latencies: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) latencies.push(await importAndTime(services, seen, importOf(round, checks)));
  } finally {
    abort.abort();
    await done.catch(() => undefined);
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    past_checks: checks,
    imports: rounds,
    touched_per_import: { senders_of_past_checks: TOUCHED, addresses_of_no_check: UNRELATED },
    commit_to_last_retroactive_alert_ms: {
      p50: Math.round(percentile(sorted, 50)),
      p99: Math.round(percentile(sorted, 99)),
      max: Math.round(sorted.at(-1)!),
    },
    populate_seconds: Math.round(populateSeconds),
  };
}
