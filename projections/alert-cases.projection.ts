import { present } from '../domain/shared/present.js';
import type { CaseActor, CaseAlert, CaseStatus, CloseReason } from '../domain/alerts/alert-case.events.js';
import type { AlertLevel } from '../domain/kyt/alert-level.js';
import type { Chain } from '../domain/shared/network.js';
import type { ChangeReason } from '../domain/intel/change-reason.js';
import type { ChangeReasonV1 } from '../domain/intel/change-reason.upcast.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import { defineProjection } from '../domain/ports/projection.port.js';

/** One entry of a case's audit trail: one event of its stream, as who did what when. */
export interface CaseHistoryEntry {
  readonly at: string;
  /** null: the service itself (the case was opened from the transfer check). */
  readonly by: CaseActor | null;
  readonly action: 'opened' | 'status_changed' | 'assigned' | 'commented';
  readonly from?: string | null;
  readonly to?: string | null;
  readonly reason?: CloseReason | null;
  readonly note?: string | null;
  readonly text?: string;
}

export interface CaseComment {
  readonly commentId: string;
  readonly text: string;
  readonly by: CaseActor;
  readonly at: string;
}

/** A case as lists and pages read it, with its full audit trail. */
export interface AlertCaseDoc extends Record<string, unknown> {
  alertId: string;
  checkId: string;
  alertIndex: number;
  subgroupId: string;
  chain: Chain;
  txHash: string;
  alert: CaseAlert;
  riskLevel: AlertLevel;
  status: CaseStatus;
  /** The reason and note of the last close (null while the case is not closed). */
  closeReason: CloseReason | null;
  closeNote: string | null;
  assignee: CaseActor | null;
  /** The assignee's user id, or null: a field of its own so that lists filter on it. */
  assigneeId: string | null;
  comments: CaseComment[];
  history: CaseHistoryEntry[];
  checkedAt: string;
  /**
   * The intelligence change that raised the alert after the check (retroactive exposure); absent in older
   * documents. Documents folded before change reasons were domain facts hold them in the webhook's words
   * (read through changeReasonsAsStored while such a document lasts; `projections rebuild alert-cases` refolds them).
   */
  retroactive?: { changeKey: string; reasons: (ChangeReason | ChangeReasonV1)[] } | null;
  createdAt: string;
  updatedAt: string;
}

export const alertCasesProjection = defineProjection({
  name: 'alert-cases',
  collection: 'alert_cases',
  indexes: [['subgroupId', 'createdAt']],
  handles: ['AlertCaseOpened', 'AlertCaseStatusChanged', 'AlertCaseAssigned', 'AlertCaseCommented'],
  idOf: (event) => event.data.alertId,
  evolve: (doc: AlertCaseDoc | null, event): AlertCaseDoc | null => {
    if (event.type === 'AlertCaseOpened') {
      if (doc) return doc;
      const d = event.data;
      return {
        alertId: d.alertId,
        checkId: d.checkId,
        alertIndex: d.alertIndex,
        subgroupId: d.subgroupId,
        chain: d.chain,
        txHash: d.txHash,
        alert: d.alert,
        riskLevel: d.alert.riskLevel,
        status: 'open',
        closeReason: null,
        closeNote: null,
        assignee: null,
        assigneeId: null,
        comments: [],
        history: [{ at: d.at, by: null, action: 'opened', to: 'open' }],
        checkedAt: d.checkedAt,
        retroactive: d.retroactive ? { changeKey: d.retroactive.changeKey, reasons: [...d.retroactive.reasons] } : null,
        createdAt: d.at,
        updatedAt: d.at,
      };
    }
    if (!doc) return null;
    switch (event.type) {
      case 'AlertCaseStatusChanged': {
        const { from, to, reason, note, by, at } = event.data;
        const closed = to === 'closed';
        return {
          ...doc,
          status: to,
          closeReason: closed ? reason : null,
          closeNote: closed ? note : null,
          history: [...doc.history, { at, by, action: 'status_changed', from, to, reason, note }],
          updatedAt: at,
        };
      }
      case 'AlertCaseAssigned': {
        const { from, to, by, at } = event.data;
        return {
          ...doc,
          assignee: to,
          assigneeId: to?.userId ?? null,
          history: [...doc.history, { at, by, action: 'assigned', from: from?.email ?? null, to: to?.email ?? null }],
          updatedAt: at,
        };
      }
      case 'AlertCaseCommented': {
        const { commentId, text, by, at } = event.data;
        return {
          ...doc,
          comments: [...doc.comments, { commentId, text, by, at }],
          history: [...doc.history, { at, by, action: 'commented', text }],
          updatedAt: at,
        };
      }
    }
  },
});

export interface AlertCaseFilter {
  readonly status?: CaseStatus;
  readonly riskLevel?: AlertLevel;
  /** A user id, or null for unassigned cases. */
  readonly assigneeId?: string | null;
  readonly checkId?: string;
  readonly chain?: Chain;
  /** ISO time: cases opened at or after it. */
  readonly since?: string;
}

export interface AlertCaseRepository {
  get(alertId: string): Promise<AlertCaseDoc | null>;
  /** Newest first, across the given subgroups. */
  page(
    subgroupIds: readonly string[],
    filter: AlertCaseFilter,
    paging: { page: number; pageSize: number },
  ): Promise<{ rows: readonly AlertCaseDoc[]; total: number }>;
  /** Oldest first, opened in [since, until), at most `limit` (exports). */
  opened(subgroupIds: readonly string[], range: { since: string; until: string }, limit: number): Promise<readonly AlertCaseDoc[]>;
}

export function alertCaseRepository(store: ReadStore): AlertCaseRepository {
  const cases = store.collection<AlertCaseDoc>(alertCasesProjection.collection, alertCasesProjection.indexes);
  const whereOf = (subgroupId: string, filter: AlertCaseFilter) => ({
    where: {
      subgroupId,
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.riskLevel ? { riskLevel: filter.riskLevel } : {}),
      ...(filter.assigneeId !== undefined ? { assigneeId: filter.assigneeId } : {}),
      ...(filter.checkId ? { checkId: filter.checkId } : {}),
      ...(filter.chain ? { chain: filter.chain } : {}),
    },
    ...(filter.since ? { since: { field: 'createdAt', value: filter.since } } : {}),
  });
  const newest = { orderBy: { field: 'createdAt', direction: 'desc' as const } };
  return {
    get: async (alertId) => (await cases.get(alertId))?.doc ?? null,
    async page(subgroupIds, filter, { page, pageSize }) {
      const skip = (page - 1) * pageSize;
      if (subgroupIds.length === 1) {
        const query = whereOf(present(subgroupIds[0], 'this branch runs for exactly one subgroup'), filter);
        const [rows, total] = await Promise.all([cases.find({ ...query, ...newest, skip, limit: pageSize }), cases.count(query)]);
        return { rows, total };
      }
      // Several subgroups (rare): each list up to the end of the page, merged by time.
      const lists = await Promise.all(
        subgroupIds.map(async (id) => {
          const query = whereOf(id, filter);
          return { rows: await cases.find({ ...query, ...newest, limit: skip + pageSize }), total: await cases.count(query) };
        }),
      );
      const merged = lists
        .flatMap((l) => l.rows)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.alertId.localeCompare(b.alertId));
      return { rows: merged.slice(skip, skip + pageSize), total: lists.reduce((sum, l) => sum + l.total, 0) };
    },
    async opened(subgroupIds, { since, until }, limit) {
      const lists = await Promise.all(
        subgroupIds.map((subgroupId) =>
          cases.find({
            where: { subgroupId },
            since: { field: 'createdAt', value: since },
            orderBy: { field: 'createdAt', direction: 'asc' },
            limit,
          }),
        ),
      );
      return lists
        .flat()
        .filter((doc) => doc.createdAt < until)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .slice(0, limit);
    },
  };
}
