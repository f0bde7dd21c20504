import type { SanctionsCoverage } from '../domain/coverage/sanctions-coverage.js';
import { MONITOR_EVENT_TYPES, monitorStreams } from '../domain/monitors/monitor.events.js';
import type { ChangeReason } from '../domain/intel/change-reason.js';
import type { MonitorDataVersions, MonitorVerdict } from '../domain/monitors/monitor-verdict.js';
import { monitorDataVersionsAsStored, monitorVerdictAsStored } from '../domain/monitors/monitor.upcast.js';
import { changeReasonsAsStored } from '../domain/intel/change-reason.upcast.js';
import { defineProjection } from '../domain/ports/projection.port.js';
import type { MonitorFinder } from '../domain/ports/monitors.port.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import type { Network } from '../domain/shared/network.js';

/**
 * Monitors as documents, found by `watch_key` (`{network}:{address}`, indexed) when an intelligence change
 * touches an address, by `user_id` for the owner's pages, and by `renewal_key` (`{status}:{paid period}`)
 * when a period starts. A deleted monitor's document is removed. The history keeps the last
 * HISTORY_KEPT changes (the monitor stream keeps them all). Verdicts and data versions are the domain
 * facts the events record; documents folded before monitor verdicts (or change reasons) were domain facts
 * hold them in the API's words and are read as the facts they state (docAsRead), while such a document lasts
 * (`projections rebuild monitors` refolds them).
 */
export const HISTORY_KEPT = 100;

export interface MonitorChangeRow {
  readonly at: string;
  readonly previous: MonitorVerdict;
  readonly current: MonitorVerdict;
  readonly reasons: readonly ChangeReason[];
  /** The lists the new verdict was checked against (null: not recorded then). */
  readonly sanctions?: SanctionsCoverage | null;
}

export interface MonitorDoc extends Record<string, unknown> {
  monitor_id: string;
  user_id: string;
  address: string;
  network: Network;
  watch_key: string;
  reference: string | null;
  status: 'active' | 'paused';
  paused_reason: string | null;
  paid_period: string;
  renewal_key: string;
  verdict: MonitorVerdict;
  data_versions: MonitorDataVersions;
  /** The sanctions lists the current verdict was checked against (null: not recorded then). */
  sanctions?: SanctionsCoverage | null;
  created_at: string;
  last_evaluated_at: string;
  last_changed_at: string | null;
  history: readonly MonitorChangeRow[];
}

export const watchKey = (network: Network, address: string): string => `${network}:${address}`;
export const renewalKey = (status: MonitorDoc['status'], paidPeriod: string): string => `${status}:${paidPeriod}`;

export const monitorsProjection = defineProjection({
  name: 'monitors',
  collection: 'monitors',
  indexes: ['watch_key', ['user_id', 'created_at'], 'renewal_key', 'status'],
  handles: MONITOR_EVENT_TYPES,
  idOf: (event) => monitorStreams.idOf(event.streamId),
  evolve: (doc: MonitorDoc | null, event): MonitorDoc | null => {
    switch (event.type) {
      case 'MonitorCreated': {
        const d = event.data;
        return {
          monitor_id: d.monitorId,
          user_id: d.userId,
          address: d.address,
          network: d.network,
          watch_key: watchKey(d.network, d.address),
          reference: d.reference,
          status: 'active',
          paused_reason: null,
          paid_period: d.paidPeriod,
          renewal_key: renewalKey('active', d.paidPeriod),
          verdict: d.verdict,
          data_versions: d.dataVersions,
          sanctions: d.sanctions ?? null,
          created_at: d.createdAt,
          last_evaluated_at: d.createdAt,
          last_changed_at: null,
          history: [],
        };
      }
      case 'MonitorVerdictChanged': {
        if (!doc) return doc;
        const { at, previous, current, reasons, dataVersions } = event.data;
        const sanctions = event.data.sanctions ?? null;
        const history = [...doc.history, { at, previous, current, reasons, sanctions }].slice(-HISTORY_KEPT);
        return { ...doc, verdict: current, data_versions: dataVersions, sanctions, last_evaluated_at: at, last_changed_at: at, history };
      }
      case 'MonitorRenewed':
        return doc && { ...doc, paid_period: event.data.period, renewal_key: renewalKey(doc.status, event.data.period) };
      case 'MonitorPaused':
        return doc && { ...doc, status: 'paused', paused_reason: event.data.reason, renewal_key: renewalKey('paused', doc.paid_period) };
      case 'MonitorResumed':
        return (
          doc && {
            ...doc,
            status: 'active',
            paused_reason: null,
            paid_period: event.data.period,
            renewal_key: renewalKey('active', event.data.period),
          }
        );
      case 'MonitorDeleted':
        return null;
    }
  },
});

export interface MonitorRepository extends MonitorFinder {
  get(monitorId: string): Promise<MonitorDoc | null>;
  watching(network: Network, address: string): Promise<readonly MonitorDoc[]>;
  page(userId: string, options: { page: number; pageSize: number }): Promise<{ rows: readonly MonitorDoc[]; total: number }>;
  count(status?: MonitorDoc['status']): Promise<number>;
}

/** A document as the repository gives it: verdicts and data versions folded in the API's words read as domain facts. */
function docAsRead(doc: MonitorDoc): MonitorDoc {
  const verdict = (value: MonitorVerdict) => monitorVerdictAsStored(value) as MonitorVerdict;
  return {
    ...doc,
    verdict: verdict(doc.verdict),
    data_versions: monitorDataVersionsAsStored(doc.data_versions) as MonitorDataVersions,
    history: doc.history.map((row) => ({
      ...row,
      previous: verdict(row.previous),
      current: verdict(row.current),
      reasons: changeReasonsAsStored(row.reasons),
    })),
  };
}
const docsAsRead = async (docs: Promise<readonly MonitorDoc[]>): Promise<readonly MonitorDoc[]> => (await docs).map(docAsRead);

export function monitorRepository(store: ReadStore): MonitorRepository {
  const monitors = store.collection<MonitorDoc>(monitorsProjection.collection, monitorsProjection.indexes);
  return {
    async get(monitorId) {
      const found = await monitors.get(monitorId);
      return found ? docAsRead(found.doc) : null;
    },
    watching: (network, address) => docsAsRead(monitors.find({ where: { watch_key: watchKey(network, address) } })),
    async page(userId, { page, pageSize }) {
      const filter = { where: { user_id: userId } };
      const [rows, total] = await Promise.all([
        monitors.find({ ...filter, orderBy: { field: 'created_at', direction: 'desc' }, skip: (page - 1) * pageSize, limit: pageSize }),
        monitors.count(filter),
      ]);
      return { rows: rows.map(docAsRead), total };
    },
    anyActive: async () => (await monitors.find({ where: { status: 'active' }, limit: 1 })).length > 0,
    due: (status, paidPeriod, limit) => docsAsRead(monitors.find({ where: { renewal_key: renewalKey(status, paidPeriod) }, limit })),
    count: (status) => monitors.count(status ? { where: { status } } : {}),
  };
}
