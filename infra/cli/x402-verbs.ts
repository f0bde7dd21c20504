import { fail } from '../../domain/shared/errors.js';
import { microsToUsd } from '../../domain/shared/money.js';
import { flag, numberFlag } from './args.js';
import type { VerbTable } from './verb.js';

const STATUSES = ['reserved', 'failed', 'uncertain', 'settled', 'waived', 'served', 'backend_failed'];

/**
 * `x402 payments [--status <status>] [--reconcile] [--limit N]`: the x402 channel's payments, newest first,
 * with settled revenue per day and the payments an operator must reconcile (money moved, call not served).
 */
export const X402_VERBS: VerbTable<'projections' | 'x402'> = {
  async 'x402 payments'(services, args) {
    const status = flag(args, 'status');
    if (status !== undefined && !STATUSES.includes(status)) throw fail('bad_request', `--status is one of ${STATUSES.join(', ')}`);
    const limit = numberFlag(args, 'limit') ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw fail('bad_request', '--limit is an integer from 1 to 10000');
    await services.projections.whenCaughtUp();
    const { payments, revenue, app } = services.x402;
    const filter = { ...(status ? { status } : {}), ...(args.flags.reconcile ? { needsReconciliation: true } : {}) };
    const [rows, total, toReconcile, days] = await Promise.all([
      payments.list({ ...filter, limit }),
      payments.count(filter),
      payments.count({ needsReconciliation: true }),
      revenue.days(366),
    ]);
    const settledMicros = days.reduce((sum, day) => sum + Number(day.settled_amount), 0);
    return {
      exitCode: 0,
      output: {
        channel: app ? { network: app.deps.terms.network.caip2, asset: app.deps.terms.network.asset, pay_to: app.deps.terms.payTo } : null,
        totals: { payments: total, settled_usd: microsToUsd(settledMicros), needs_reconciliation: toReconcile },
        revenue: days,
        payments: rows,
      },
    };
  },
};
