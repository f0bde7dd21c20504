import type { ReadStore } from '../domain/ports/read-store.port.js';
import { checkStreams } from '../domain/address-check/address-check.events.js';
import { inspectStreams } from '../domain/inspect/inspect.events.js';
import { ledgerPeriodStream, ledgerStream, ledgerUserOf, parseLedgerStream } from '../domain/ledger/ledger.events.js';
import { defineProjection } from '../domain/ports/projection.port.js';
import { newestFirstPage } from './newest-first-page.js';
import type { ScreenSummary } from '../domain/intel/screen-summary.js';
import type { ScreenSummaryV1 } from '../domain/ledger/charged.upcast.js';
import type { EventOf } from '../domain/events/registry.js';
import { chargeUsageOf, withRefund, type ChargeUsage } from './charge-usage.js';

/**
 * The account's checks for the workbench's History: one document per charged call (its charge id is the
 * check id of a full or transfer check), with the verdict's risk level merged in from the check's own
 * completion, whichever comes first (a full check completes before its first delivery charges it).
 * A light screen's verdict summary rides on its charge (details.screen); screens charged before it was
 * kept have none (risk level unknown). Its receipt stays in the charge only: the row keeps where that
 * Charged event is (`charge_event`), read once when the verdict is opened, so that a row holds no
 * second copy of a 1.2 KB signature (read-api/routes/stored-verdict-lookup.ts). An inspect's level is its
 * audit's worst level.
 * The row is the one read-model document of a charge: it also keeps the charge's usage fields and refunds
 * (charge-usage.ts), from which the usage rows are derived (usage-rows.ts). Rows folded before they were kept
 * have none of them: their usage row is the one the usage projection wrote then, until
 * `projections rebuild check-history` refolds them.
 */
export interface CheckHistoryDoc extends ChargeUsage, Record<string, unknown> {
  id: string;
  /** null until the charge is seen (a check completed but not yet delivered). */
  user_id: string | null;
  kind: string | null;
  network: string | null;
  subject: string | null;
  /** Full check: the verdict's risk_level; transfer check: the worst alert level or `none`. */
  risk_level: string | null;
  created_at: string | null;
  /** Light screens: the stored verdict summary, a domain fact (absent for screens recorded before it was kept). */
  summary?: ScreenSummary;
  /**
   * Rows folded before the summary was a domain fact held it in the wire's shape: read (as the domain
   * summary it states) while such a row lasts. Never written now.
   */
  screen?: ScreenSummaryV1;
  /** The charge's event in the log (its stream and revision): a light screen's receipt is read from it. */
  charge_event?: ChargeEventRef;
  /**
   * Rows folded before `charge_event` was kept held a light screen's receipt itself: read while such a row
   * lasts (`projections rebuild check-history` refolds them without it). Never written now.
   */
  receipt?: string;
}

/**
 * Where a charge was recorded: its revision in the row's user's ledger, the root stream or, with `month`, that
 * month's period stream (the stream's name is not repeated in every row: it is the user's).
 */
export interface ChargeEventRef extends Record<string, unknown> {
  /** The period's month (`YYYY-MM`) of a charge in a later period's stream; absent: the root ledger. */
  readonly month?: string;
  /** Rows folded before `month` named the stream: read while such a row lasts. Never written now. */
  readonly stream?: string;
  readonly revision: number;
}

/** The ledger stream a row's charge is in (a month is the first seven characters of its period's start). */
export const chargeStreamOf = (userId: string, at: ChargeEventRef): string =>
  at.stream ?? (at.month === undefined ? ledgerStream(userId) : ledgerPeriodStream(userId, at.month));

function chargeEventRef(streamId: string, revision: bigint): ChargeEventRef {
  const month = parseLedgerStream(streamId)?.month ?? null;
  return { ...(month === null ? {} : { month }), revision: Number(revision) };
}

const empty = (id: string): CheckHistoryDoc => ({
  id,
  user_id: null,
  kind: null,
  network: null,
  subject: null,
  risk_level: null,
  created_at: null,
});

/** A charge fills its row: who, what and when, a light screen's verdict summary, where the charge is, its usage. */
function chargedRow(doc: CheckHistoryDoc | null, event: EventOf<'Charged'>): CheckHistoryDoc {
  const d = event.data;
  const base = doc ?? empty(d.chargeId);
  // A light screen's charge carries its verdict's summary (absent on screens charged before it was kept).
  const screen = d.details.screen ? { risk_level: d.details.screen.addressLevel, summary: d.details.screen } : {};
  // A period stream (`ledger-{user}@YYYY-MM`) is the user's too: the user id, not the stream's suffix.
  return {
    ...base,
    user_id: ledgerUserOf(event.streamId),
    kind: d.product,
    network: d.details.network,
    subject: d.details.subject,
    created_at: d.at,
    ...screen,
    charge_event: chargeEventRef(event.streamId, event.revision),
    ...chargeUsageOf(d),
  };
}

export const checkHistoryProjection = defineProjection({
  name: 'check-history',
  collection: 'check_history',
  indexes: [['user_id', 'created_at']],
  handles: ['Charged', 'Refunded', 'CheckCompleted', 'TransferCheckCompleted', 'InspectCompleted'],
  idOf: (event) => {
    switch (event.type) {
      case 'Charged':
      case 'Refunded':
        return event.data.chargeId;
      case 'CheckCompleted':
        return checkStreams.idOf(event.streamId);
      case 'InspectCompleted':
        return inspectStreams.idOf(event.streamId);
      case 'TransferCheckCompleted':
        return event.data.checkId;
    }
  },
  evolve: (doc: CheckHistoryDoc | null, event) => {
    switch (event.type) {
      case 'Charged':
        return chargedRow(doc, event);
      // A refund of a charge never seen makes no row.
      case 'Refunded':
        return doc && withRefund(doc, event.data);
      case 'CheckCompleted': {
        const checkId = checkStreams.idOf(event.streamId);
        return checkId === null ? doc : { ...(doc ?? empty(checkId)), risk_level: event.data.verdict.risk.level ?? null };
      }
      case 'InspectCompleted': {
        const inspectId = inspectStreams.idOf(event.streamId);
        return inspectId === null ? doc : { ...(doc ?? empty(inspectId)), risk_level: event.data.audit.worst_risk_level ?? null };
      }
      case 'TransferCheckCompleted':
        return { ...(doc ?? empty(event.data.checkId)), risk_level: event.data.worstLevel ?? 'none' };
    }
  },
});

export interface CheckHistoryFilter {
  readonly kind?: string;
  readonly network?: string;
  readonly riskLevel?: string;
  readonly since?: string;
  /** Exclusive upper bound on created_at (ISO). */
  readonly until?: string;
}

export interface CheckHistoryRepository {
  /** One check of the user's (null when absent or someone else's). */
  get(userId: string, id: string): Promise<CheckHistoryDoc | null>;
  page(
    userId: string,
    filter: CheckHistoryFilter,
    paging: { page: number; pageSize: number },
  ): Promise<{ rows: readonly CheckHistoryDoc[]; total: number }>;
}

export function checkHistoryRepository(store: ReadStore): CheckHistoryRepository {
  const docs = store.collection<CheckHistoryDoc>(checkHistoryProjection.collection, checkHistoryProjection.indexes);
  return {
    async get(userId, id) {
      const found = await docs.get(id);
      return found && found.doc.user_id === userId ? found.doc : null;
    },
    async page(userId, filter, paging) {
      const where = {
        user_id: userId,
        ...(filter.kind ? { kind: filter.kind } : {}),
        ...(filter.network ? { network: filter.network } : {}),
        ...(filter.riskLevel ? { risk_level: filter.riskLevel } : {}),
      };
      return newestFirstPage(
        docs,
        { where, field: 'created_at', ...(filter.since ? { since: filter.since } : {}), ...(filter.until ? { until: filter.until } : {}) },
        paging,
      );
    },
  };
}
