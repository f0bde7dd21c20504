import { z } from 'zod';
import { screenSummarySchema } from '../intel/screen-summary.js';
import { screenChargeReceiptSchema } from '../receipts/charged-screen-receipt.js';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `ledger-{userId}`: the root of a user's ledger, its first period (and, for a data directory
 * written before periods, its whole history up to the first rollover). Later periods are the streams
 * `ledger-{userId}@YYYY-MM` (see ledgerPeriodStream), chained by PeriodClosed.next / PeriodOpened.previous.
 */
export const ledgerStreams = streamFamily('ledger');
export const ledgerStream = ledgerStreams.stream;

/** Separates the user id from a period's month in a period stream's name (user ids never contain it). */
const PERIOD_SEPARATOR = '@';

/** Stream of the user's ledger period that counts in the month of `periodStart` (ISO, first of the month). */
export const ledgerPeriodStream = (userId: string, periodStart: string): string =>
  `${ledgerStream(userId)}${PERIOD_SEPARATOR}${periodStart.slice(0, 7)}`;

/** A ledger stream taken apart: its user, and the period's month (`YYYY-MM`) or null for the root. */
export interface LedgerStreamName {
  readonly userId: string;
  readonly month: string | null;
}

/** The parts of a ledger stream's name (root or period), or null for a stream of another family. */
export function parseLedgerStream(streamId: string): LedgerStreamName | null {
  const userAndMonth = ledgerStreams.idOf(streamId);
  if (userAndMonth === null) return null;
  const separator = userAndMonth.lastIndexOf(PERIOD_SEPARATOR);
  return separator === -1
    ? { userId: userAndMonth, month: null }
    : { userId: userAndMonth.slice(0, separator), month: userAndMonth.slice(separator + PERIOD_SEPARATOR.length) };
}

/** The user whose ledger a stream (root or period) belongs to; throws for a stream of another family. */
export function ledgerUserOf(streamId: string): string {
  const parsed = parseLedgerStream(streamId);
  if (!parsed) throw new Error(`${streamId} is not a ledger stream`);
  return parsed.userId;
}

/** True for a user's root ledger stream (not a later period). */
export const isLedgerRoot = (streamId: string): boolean => parseLedgerStream(streamId)?.month === null;

const micros = z.number().int().nonnegative();
const isoTime = z.string();

export const planSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('quota'), monthlyUnits: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('ledger') }),
]);
export type Plan = z.infer<typeof planSchema>;

export const chargeDetailsSchema = z.object({
  endpoint: z.string(),
  keyId: z.string().nullable(),
  network: z.string().nullable(),
  subject: z.string().nullable(),
  /** Multi-provider calls: every provider the call asked for, and whether its run is in this charge. */
  providers: z.array(z.object({ provider: z.string(), outcome: z.string(), charged: z.boolean() })).optional(),
  /** Light screens: the summary of the verdict the charge paid for (absent on charges written before it was kept). */
  screen: screenSummarySchema.optional(),
  /**
   * Light screens: the receipt given with the verdict (absent on charges written before receipts were kept):
   * what the charge does not already state of it, or its statement and detached JWS whole
   * (domain/receipts/charged-screen-receipt.ts). Schema version 1 kept the wire summary and the compact JWS,
   * version 2 always the detached receipt whole (charged.upcast.ts).
   */
  receipt: screenChargeReceiptSchema.optional(),
});
export type ChargeDetails = z.infer<typeof chargeDetailsSchema>;

/** What one period hands to the next: money, plan, cap and the quota month's usage. */
export const ledgerSnapshotSchema = z.object({
  plan: planSchema,
  balanceMicros: micros,
  monthlyCapMicros: micros.nullable(),
  periodStart: isoTime.nullable(),
  periodUnitsUsed: z.number().int().nonnegative(),
  periodSpentMicros: micros,
});
export type LedgerSnapshot = z.infer<typeof ledgerSnapshotSchema>;

export const ledgerEventSchemas = {
  PlanChanged: z.object({ plan: planSchema, at: isoTime }),
  FundsDeposited: z.object({ depositId: z.string(), amountMicros: micros, at: isoTime }),
  MonthlyCapSet: z.object({ capMicros: micros.nullable(), at: isoTime }),
  QuotaPeriodStarted: z.object({ periodStart: isoTime, monthlyUnits: z.number().int().nonnegative() }),
  Charged: z.object({
    chargeId: z.string(),
    product: z.string(),
    /** Quota units debited (quota plans), else 0. */
    units: z.number().int().nonnegative(),
    /** Micro-USD debited (ledger plans), else 0. */
    amountMicros: micros,
    periodStart: isoTime,
    at: isoTime,
    details: chargeDetailsSchema,
  }),
  Refunded: z.object({
    chargeId: z.string(),
    units: z.number().int().nonnegative(),
    amountMicros: micros,
    reason: z.string(),
    at: isoTime,
  }),
  /** The last event of a closed period: its closing state, and the stream of the period that follows. */
  PeriodClosed: z.object({ next: z.string(), nextMonth: isoTime, closing: ledgerSnapshotSchema, at: isoTime }),
  /** The first event of a period stream: the month it counts in, and the previous period's closing. */
  PeriodOpened: z.object({ month: isoTime, previous: z.string(), opening: ledgerSnapshotSchema, at: isoTime }),
} as const;

type Schemas = typeof ledgerEventSchemas;
export type LedgerEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];
export type LedgerEventType = LedgerEvent['type'];
