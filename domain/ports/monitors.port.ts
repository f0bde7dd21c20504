import type { Network } from '../shared/network.js';

/** A monitor as the re-evaluation and renewal processors need it (the monitors read model implements this). */
export interface WatchedMonitor {
  readonly monitor_id: string;
  readonly status: 'active' | 'paused';
}

export interface MonitorFinder {
  /** The monitors of one (network, address), through an index: never a scan of all monitors. */
  watching(network: Network, address: string): Promise<readonly WatchedMonitor[]>;
  /** Whether any monitor is active (one indexed lookup): with none, an intelligence change has nothing to re-screen. */
  anyActive(): Promise<boolean>;
  /** Up to `limit` monitors in a status whose last paid period is `paidPeriod` (the renewal's work list). */
  due(status: WatchedMonitor['status'], paidPeriod: string, limit: number): Promise<readonly WatchedMonitor[]>;
}
