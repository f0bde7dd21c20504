import { present } from '../../../domain/shared/present.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { transferCheckDecider } from '../../../domain/kyt/transfer-check.decider.js';
import { transferCheckStream } from '../../../domain/kyt/transfer-check.events.js';
import type { AlertCaseDoc } from '../../../projections/alert-cases.projection.js';
import { alertActions } from '../../routes/alerts-actions.js';
import { alertListQuery, commentBody, triageBody } from '../../routes/alerts-schemas.js';
import type { AppServices } from '../../services.js';
import { requireUser } from '../session-auth.js';
import { alertCasePage, type CheckVersions } from './alert-case.page.js';
import { alertsPage } from './alerts.page.js';
import { toCsv } from './csv.js';
import { exportRange, MAX_EXPORT_ROWS } from './export-range.js';
import { alertReportPage } from './report.page.js';

const PAGE_SIZE = 25;
const idParams = z.object({ id: z.string().max(100) });
/** The dashboard's form sends `none` for "nobody" (an empty field is not sent at all). */
const dashboardTriageBody = triageBody.transform((body) => (body.assignee === 'none' ? { ...body, assignee: null } : body));

/**
 * Alerts in the dashboard: the list with filters, a case's page with its triage and comment forms and
 * audit trail, a printable report and the CSV export; /api/alerts/* are the forms' actions. Same
 * commands, read models and subgroup scope as /v2/alerts.
 */
export function alertDashboardRoutes(services: AppServices): FastifyPluginAsync {
  const actions = alertActions(services);
  const viewerOf = (request: FastifyRequest) => actions.viewerOf(requireUser(request).userId);
  const page = (reply: FastifyReply, body: { value: string }) => reply.type('text/html; charset=utf-8').send(body.value);

  async function membersOf(subgroupIds: readonly string[]) {
    const found = new Map<string, string>();
    for (const subgroupId of subgroupIds) {
      for (const member of await services.alerts.members.membersOf(subgroupId)) {
        if (!found.has(member.userId)) found.set(member.userId, (await services.accounts.get(member.userId))?.email ?? member.userId);
      }
    }
    return [...found].map(([userId, email]) => ({ userId, email })).sort((a, b) => a.email.localeCompare(b.email));
  }

  async function visible(request: FastifyRequest): Promise<AlertCaseDoc> {
    const { id } = idParams.parse(request.params);
    const viewer = await viewerOf(request);
    await actions.get(viewer, id); // not_found outside the viewer's subgroups
    return present(await services.alerts.cases.get(id.toLowerCase()), '(await services.alerts.cases.get(id.toLowerCase()))');
  }

  async function versionsOf(checkId: string): Promise<CheckVersions | null> {
    const { state } = await services.commands.executor.load(transferCheckStream(checkId), transferCheckDecider);
    const result = state.result as {
      checked_at?: string;
      policy_result?: { policy?: string; version?: string; taxonomy_version?: string };
      composite_result?: { prices?: { source: string; as_of: string }[] };
    } | null;
    if (!result?.checked_at) return null;
    const policy = result.policy_result;
    return {
      checkedAt: result.checked_at,
      policy: policy?.policy ? `${policy.policy} ${policy.version ?? ''}`.trim() : null,
      taxonomyVersion: policy?.taxonomy_version ?? null,
      prices: result.composite_result?.prices ?? [],
    };
  }

  return async (app) => {
    app.get('/alerts', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const viewer = await viewerOf(request);
      const parsed = alertListQuery.safeParse(
        Object.fromEntries(Object.entries((request.query ?? {}) as Record<string, string>).filter(([, v]) => v !== '')),
      );
      const query = parsed.success ? { ...parsed.data, page_size: PAGE_SIZE } : alertListQuery.parse({ page_size: PAGE_SIZE });
      const [list, members] = await Promise.all([actions.list(viewer, query), membersOf(viewer.subgroupIds)]);
      const rows = await Promise.all(
        list.alerts.map(async (a) => present(await services.alerts.cases.get(a.id), '(await services.alerts.cases.get(a.id))')),
      );
      return page(
        reply,
        alertsPage(user, {
          rows,
          total: list.pagination.total,
          page: query.page,
          totalPages: Math.max(1, list.pagination.total_pages),
          filter: {
            ...(query.status ? { status: query.status } : {}),
            ...(query.risk_level ? { risk_level: query.risk_level } : {}),
            ...(query.assignee ? { assignee: query.assignee } : {}),
            ...(query.check_id ? { check_id: query.check_id } : {}),
          },
          members,
          today: services.commands.clock.now().toISOString().slice(0, 10),
        }),
      );
    });

    app.get('/alerts/export.csv', { schema: { hide: true } }, async (request, reply) => {
      requireUser(request);
      const range = exportRange(request.query);
      const viewer = await viewerOf(request);
      const rows = viewer.subgroupIds.length === 0 ? [] : await services.alerts.cases.opened(viewer.subgroupIds, range, MAX_EXPORT_ROWS);
      const csv = toCsv(
        [
          'alert_id',
          'created_at',
          'check_id',
          'chain',
          'tx_hash',
          'risk_level',
          'category',
          'rule_type',
          'actual_share',
          'entity_name',
          'entity_address',
          'status',
          'reason',
          'note',
          'assignee',
          'updated_at',
        ],
        rows.map((r) => [
          r.alertId,
          r.createdAt,
          r.checkId,
          r.chain,
          r.txHash,
          r.riskLevel,
          r.alert.category,
          r.alert.ruleType,
          r.alert.actualShare,
          r.alert.entityName,
          r.alert.entityAddress,
          r.status,
          r.closeReason,
          r.closeNote,
          r.assignee?.email ?? null,
          r.updatedAt,
        ]),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="alerts_${range.label}${rows.length >= MAX_EXPORT_ROWS ? '_truncated' : ''}.csv"`,
        )
        .send(csv);
    });

    app.get('/alerts/:id', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const doc = await visible(request);
      const [members, versions] = await Promise.all([membersOf([doc.subgroupId]), versionsOf(doc.checkId)]);
      return page(reply, alertCasePage(user, { doc, members, versions }));
    });

    app.get('/alerts/:id/report', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const doc = await visible(request);
      return page(reply, alertReportPage(user, doc, await versionsOf(doc.checkId), services.commands.clock.now().toISOString()));
    });

    app.patch('/api/alerts/:id', { schema: { hide: true, params: idParams, body: dashboardTriageBody } }, async (request) => {
      const { id } = request.params as z.infer<typeof idParams>;
      return actions.triage(await viewerOf(request), id, request.body as z.infer<typeof dashboardTriageBody>);
    });

    app.post('/api/alerts/:id/comments', { schema: { hide: true, params: idParams, body: commentBody } }, async (request, reply) => {
      const { id } = request.params as z.infer<typeof idParams>;
      return reply.status(201).send(await actions.comment(await viewerOf(request), id, (request.body as z.infer<typeof commentBody>).text));
    });
  };
}
