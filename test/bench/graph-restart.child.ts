import { createHash } from 'node:crypto';
import { searchExposure } from '../../domain/exposure/exposure-search.js';
import type { ExposureBudget } from '../../domain/exposure/exposure.schema.js';
import { labelFromIntel, memoized } from '../../domain/exposure/node-label.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * One start of the service on a data directory, in a process of its own (bench:graph's restarts): the
 * start time, RSS after the start, the first searches (cold: nothing of the graph in this process, and
 * the OS cache emptied by the parent when it could), then warm searches, and full checks end to end.
 * Prints one JSON line. Args: DATA_DIR SOURCES_DIR ANCHORS_JSON HUB|- COLD WARM CHECKS.
 */

const BUDGET: ExposureBudget = { maxNodes: 10_000, maxEdges: 200_000, maxHops: 6, timeMs: 10_000, perNodeLimit: 1000 };

/**
 * What a search cost the process besides the wall clock: user and system CPU, and page faults, minor (a page
 * of the LMDB map already in the OS cache, mapped into the process on first touch) and major (read from disk).
 */
function usageSince(before: NodeJS.ResourceUsage) {
  const after = process.resourceUsage();
  const userMs = (after.userCPUTime - before.userCPUTime) / 1000;
  const systemMs = (after.systemCPUTime - before.systemCPUTime) / 1000;
  return {
    cpuMs: userMs + systemMs,
    userMs,
    systemMs,
    minorFaults: after.minorPageFault - before.minorPageFault,
    majorFaults: after.majorPageFault - before.majorPageFault,
  };
}

async function fullCheck(service: TestService, apiKey: string, address: string): Promise<number> {
  const headers = { authorization: `Bearer ${apiKey}` };
  const started = performance.now();
  const { result_url } = (
    await service.app.inject({ method: 'POST', url: '/v2/check-address', headers, payload: { address, network: 'ETH' } })
  ).json();
  for (;;) {
    const response = await service.app.inject({ method: 'GET', url: result_url, headers });
    if (response.statusCode === 200) return performance.now() - started;
    if (response.statusCode !== 202) throw new Error(`check failed: ${response.body}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

async function main() {
  const [dataDir, sources, anchorsJson, hub, cold, warm, checks] = process.argv.slice(2) as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const anchors = JSON.parse(anchorsJson) as string[];
  const started = performance.now();
  // The parent passes the graph store's choice (GRAPH_STORE, GRAPH_POSTGRES_SCHEMA) in this process's environment.
  const graph: Record<string, string> =
    process.env.GRAPH_STORE === 'postgres'
      ? { GRAPH_STORE: 'postgres', GRAPH_POSTGRES_SCHEMA: process.env.GRAPH_POSTGRES_SCHEMA ?? '' }
      : {};
  const service = await startTestService({ SVC_SOURCES_DIR: sources, ...graph }, dataDir);
  const startMs = performance.now() - started;
  const rssAfterStart = process.memoryUsage().rss;
  try {
    const { intel } = service.services;
    const transfers = service.services.fullCheck.transfers;
    const search = async (address: string) => {
      const classify = memoized((a) => labelFromIntel(intel.lookup(a, 'ETH')));
      const t0 = performance.now();
      const usage0 = process.resourceUsage();
      const result = await searchExposure(
        {
          flows: transfers.flows.bind(transfers),
          flowsOfMany: transfers.flowsOfMany?.bind(transfers),
          classify,
          now: () => performance.now(),
        },
        { address, network: 'ETH', direction: 'in', budget: BUDGET },
      );
      const ms = performance.now() - t0;
      const usage = usageSince(usage0);
      return {
        ms,
        ...usage,
        nodes: result.nodesVisited,
        edges: result.edgesScanned,
        complete: result.complete,
        // What the search found, without its timing: two builds that search alike print the same digests.
        digest: createHash('sha256')
          .update(JSON.stringify({ ...result, elapsedMs: 0 }))
          .digest('hex')
          .slice(0, 16),
      };
    };
    const coldRuns = [];
    for (const address of anchors.slice(0, Number(cold))) coldRuns.push(await search(address));
    const warmRuns = [];
    for (const address of anchors.slice(Number(cold), Number(cold) + Number(warm))) warmRuns.push(await search(address));
    const rssAfterSearches = process.memoryUsage().rss;
    const { apiKey } = await service.account({ depositUsd: 1000 });
    const hubChecks = [];
    const ordinaryChecks = [];
    for (let i = 0; i < Number(checks); i++) {
      if (hub !== '-') hubChecks.push(await fullCheck(service, apiKey, hub));
      ordinaryChecks.push(await fullCheck(service, apiKey, anchors[i % anchors.length]!));
    }
    const hubActivity = hub === '-' ? null : await transfers.activity(hub, 'ETH');
    process.stdout.write(
      `${JSON.stringify({ startMs, rssAfterStart, rssAfterSearches, coldRuns, warmRuns, hubChecks, ordinaryChecks, hubCounterparties: hubActivity?.incoming.counterparties ?? null })}\n`,
    );
  } finally {
    await service.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
