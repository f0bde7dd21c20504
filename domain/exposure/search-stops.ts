import type { FlowPage } from '../ports/chain-data.port.js';
import type { RemainderStop, SearchStops, ServiceStop } from './exposure.schema.js';
import { RISK_SEVERITY_FLOOR, type NodeLabel } from './node-label.js';

/**
 * The stops of an exposure search, for its evidence: the attributed services it did not follow (pooled
 * funds), and the counterparties of expanded addresses it did not read (past the per-node limit, or a
 * super-node's aggregated remainder). Each is listed heaviest first, at most STOPS_LISTED of each.
 */

export const STOPS_LISTED = 5;

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
const heaviest = <T extends { share: number; address: string }>(rows: readonly T[]): T[] =>
  [...rows].sort((a, b) => b.share - a.share || (a.address < b.address ? -1 : 1)).slice(0, STOPS_LISTED);

export class SearchStopsLog {
  private readonly remainders: Omit<RemainderStop, 'usdMicros'>[] = [];
  private readonly services: Omit<ServiceStop, 'usdMicros'>[] = [];

  /**
   * An expanded address whose page holds fewer counterparties than it has: what the rows not read carry,
   * in the search's weighting (USD, or transfers), is the part of `share` that stops there.
   */
  expanded(address: string, hop: number, share: number, page: FlowPage, byUsd: boolean): void {
    const unread = page.totals.counterparties - page.size;
    if (unread <= 0) return;
    let readUsd = 0;
    let readTransfers = 0;
    for (let row = 0; row < page.size; row++) {
      readUsd += page.usdMicros(row);
      readTransfers += page.transfers(row);
    }
    const total = byUsd ? page.totals.usdMicros : page.totals.transfers;
    const rest = Math.max(0, total - (byUsd ? readUsd : readTransfers));
    this.remainders.push({
      address,
      hops: hop,
      counterparties: unread,
      share: total > 0 ? clamp01((share * rest) / total) : 0,
      remainderUsdMicros: Math.max(0, Math.round(page.totals.usdMicros - readUsd)),
      superNode: page.kept !== undefined && page.kept < page.totals.counterparties,
    });
  }

  /** A labelled address the search reached: a stop at a service when its category is below the risk floor. */
  reached(address: string, label: NodeLabel, hop: number, share: number): void {
    if (label.severity >= RISK_SEVERITY_FLOOR) return;
    this.services.push({ address, category: label.category, label: label.label, hops: hop, share: clamp01(share) });
  }

  /** The stops, with USD as the share of the anchor's `totalUsdMicros` (0 when the search weighted by transfer count). */
  result(totalUsdMicros: number, byUsd: boolean): SearchStops {
    const usdOf = (share: number) => (byUsd ? Math.round(share * totalUsdMicros) : 0);
    return {
      services: heaviest(this.services).map((s) => ({ ...s, usdMicros: usdOf(s.share) })),
      servicesTotal: this.services.length,
      remainders: heaviest(this.remainders).map((r) => ({ ...r, usdMicros: usdOf(r.share) })),
      remaindersTotal: this.remainders.length,
    };
  }
}
