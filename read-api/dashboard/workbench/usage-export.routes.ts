import type { FastifyPluginAsync } from 'fastify';
import type { UsageRowDoc } from '../../../projections/usage-rows.js';
import type { AppServices } from '../../services.js';
import { requireUser } from '../session-auth.js';
import { toCsv } from './csv.js';
import { exportRange, MAX_EXPORT_ROWS } from './export-range.js';

const PAGE_SIZE = 100;
/** Pages read at most for one export (rows after the range are read and skipped). */
const MAX_PAGES = 200;

/** GET /account/usage.csv?since&until: the account's usage rows of whole UTC days, oldest first. */
export function usageExportRoutes(services: AppServices): FastifyPluginAsync {
  return async (app) => {
    app.get('/account/usage.csv', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const range = exportRange(request.query);
      const rows: UsageRowDoc[] = [];
      for (let page = 1; page <= MAX_PAGES && rows.length < MAX_EXPORT_ROWS; page++) {
        const found = await services.usage.page(user.userId, { page, pageSize: PAGE_SIZE, since: range.since });
        rows.push(...found.rows.filter((row) => row.created_at < range.until));
        if (page * PAGE_SIZE >= found.total) break;
      }
      const kept = rows.slice(0, MAX_EXPORT_ROWS).reverse();
      const csv = toCsv(
        [
          'call_id',
          'created_at',
          'product',
          'endpoint',
          'network',
          'subject',
          'key_id',
          'units',
          'charged_usd',
          'refunded_units',
          'refunded_usd',
          'refund_reason',
        ],
        kept.map((r) => [
          r.call_id,
          r.created_at,
          r.product,
          r.endpoint,
          r.network,
          r.subject,
          r.key_id,
          r.units,
          r.charged_usd,
          r.refunded_units,
          r.refunded_usd,
          r.refund_reason,
        ]),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="usage_${range.label}${rows.length >= MAX_EXPORT_ROWS ? '_truncated' : ''}.csv"`,
        )
        .send(csv);
    });
  };
}
