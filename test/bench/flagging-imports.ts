import { randomUUID } from 'node:crypto';
import { importDataset } from '../../commands/import-dataset.js';
import type { Claim, SourceDescriptor } from '../../domain/intel/intel.types.js';
import type { Services } from '../../infra/bootstrap.js';

/**
 * What bench:monitoring's two paths share: imports of a synthetic scam feed (made-up addresses), and the
 * time from an import's commit to the last change it causes, seen on a live `$all` subscription.
 */
export type ChangesByKey = Map<string, { count: number; lastAt: number }>;

const WAIT_MS = 60_000;

const descriptor = (slug: string): SourceDescriptor => ({
  slug,
  class: 'community_feed',
  trustWeight: 70,
  publicName: `Benchmark feed ${slug}`,
  url: 'https://example.org/bench',
});

export const scamClaim = (address: string, source: string, at: string): Claim => ({
  address,
  scope: 'evm',
  kind: 'risk',
  category: 'scam',
  label: null,
  confidence: 90,
  sourceUrl: 'https://example.org/bench',
  firstSeenAt: at,
  lastSeenAt: at,
  source,
});

/** Every event of `type` under `prefix` as it is appended, counted by its change key (the import that caused it). */
export function watchChanges(services: Services, watched: { prefix: string; type: string }, signal: AbortSignal) {
  const seen: ChangesByKey = new Map();
  const done = (async () => {
    for await (const delivery of services.store.subscribeToAll({ from: 'end', filter: { streamPrefixes: [watched.prefix] }, signal })) {
      if (delivery.kind !== 'event' || delivery.event.type !== watched.type) continue;
      const key = (delivery.event.data as { changeKey: string }).changeKey;
      const entry = seen.get(key) ?? { count: 0, lastAt: 0 };
      seen.set(key, { count: entry.count + 1, lastAt: performance.now() });
    }
  })();
  return { seen, done };
}

/**
 * Imports `claims` as a new version of `source` and returns the milliseconds from its commit to the
 * `expected`-th change it caused; throws when it causes fewer within a minute, or more once caught up.
 */
export async function importAndTime(
  services: Services,
  seen: ChangesByKey,
  { source, at, claims, expected }: { source: string; at: string; claims: Claim[]; expected: number },
): Promise<number> {
  const contentHash = `sha256:${source}-${randomUUID()}`;
  const imported = await importDataset(services.commands, {
    source,
    version: at.slice(0, 10),
    contentHash,
    claims,
    tokens: [],
    descriptor: descriptor(source),
  });
  const committedAt = performance.now();
  if (!imported.imported) throw new Error(`${source}: nothing imported`);
  const key = `dataset:${source}:${contentHash}`;
  const deadline = Date.now() + WAIT_MS;
  while ((seen.get(key)?.count ?? 0) < expected) {
    if (Date.now() > deadline) throw new Error(`${source}: ${seen.get(key)?.count ?? 0} of ${expected} changes after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const latency = seen.get(key)!.lastAt - committedAt;
  await services.whenCaughtUp();
  const extra = (seen.get(key)?.count ?? 0) - expected;
  if (extra !== 0) throw new Error(`${source}: ${extra} changes beyond the ${expected} expected`);
  return latency;
}
