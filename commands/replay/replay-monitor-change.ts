import { checkedIntel } from '../../domain/intel/address-verdict.js';
import { buildScreenVerdict } from '../../domain/intel/screen-verdict.js';
import { monitorStream } from '../../domain/monitors/monitor.events.js';
import { monitorVerdictOf } from '../../domain/monitors/monitor-verdict.js';
import { fail } from '../../domain/shared/errors.js';
import type { MonitorChange } from './monitor-change.js';
import { clockAt, type ReplayPlan } from './replay-plan.js';

/** Stored verdicts went through JSON: what is compared is what a reader of the log sees (no undefined keys). */
const asStored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * A monitor change is recomputed as the re-evaluation made it (commands/monitors.commands.ts): the
 * address's light-screen verdict from the index alone, as the monitor watches it, with the intelligence
 * as of the change's own event. What is compared is the verdict it changed to and the data versions it
 * recorded, as domain facts under their own names (`current.riskLevel`, `dataVersions.sources[0].contentHash`);
 * the previous verdict and the reasons are the monitor's history, not recomputed.
 */
export function monitorChangeReplayPlan(found: MonitorChange): ReplayPlan {
  const { change, address, network } = found;
  if (!change.dataVersions) throw fail('not_found', 'no such verdict');
  const stream = monitorStream(found.monitorId);
  return {
    kind: 'monitor_change',
    verdictId: found.verdictId,
    madeAt: change.at,
    given: { current: change.current, dataVersions: change.dataVersions },
    addresses: [address],
    verdictEvent: {
      streamPrefix: stream,
      isVerdict: (event) =>
        event.streamId === stream &&
        event.type === 'MonitorVerdictChanged' &&
        (event.data as { changeKey?: unknown }).changeKey === change.changeKey,
    },
    recorded: ['the previous verdict and the reasons for the re-evaluation are the monitor’s history, as recorded'],
    async recompute(intel, today) {
      const clock = today ?? clockAt(change.sanctions?.at ?? change.at);
      const screen = buildScreenVerdict(checkedIntel({ intel, clock }, { address, network }));
      const { verdict, dataVersions } = monitorVerdictOf(screen);
      const match = screen.verdict.sanctionsMatch;
      return {
        value: asStored({ current: verdict, dataVersions }),
        sources: dataVersions.sources.map((s) => ({
          source: s.source,
          version: s.version,
          content_hash: s.contentHash,
          imported_at: s.importedAt,
        })),
        sanctions: match ? [match] : [],
      };
    },
  };
}
