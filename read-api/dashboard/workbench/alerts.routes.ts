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
import type { CaseViewer } from '../../../commands/alert-cases.commands.js';
import { alertCasePage, type MemberView } from './alert-case.page.js';
import { alertSenders, type AlertEvidence } from './alert-evidence.js';
import { transferRouteHops } from './hop-usd.js';
import { readTransferResult, transferRoutes } from './transfer-evidence.js';
import { presentTransferResult } from '../../presenters/transfer.presenter.js';
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

  /** The members of the viewer's subgroups, by name (the API's GET /v2/subgroups/{id}/members). */
  async function membersOf(viewer: CaseViewer, subgroupIds: readonly string[]): Promise<MemberView[]> {
    const found = new Map<string, MemberView>();
    for (const subgroupId of subgroupIds) {
      for (const m of (await actions.members(viewer, subgroupId)).data)
        found.set(m.user_id, { userId: m.user_id, email: m.email, name: m.name });
    }
    return [...found.values()].sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
  }

  async function visible(request: FastifyRequest): Promise<AlertCaseDoc> {
    const { id } = idParams.parse(request.params);
    const viewer = await viewerOf(request);
    await actions.get(viewer, id); // not_found outside the viewer's subgroups
    return present(await services.alerts.cases.get(id.toLowerCase()), '(await services.alerts.cases.get(id.toLowerCase()))');
  }

  /** The transfer check's result behind a case, and the routes of the senders its alert rests on. */
  async function evidenceOf(doc: AlertCaseDoc): Promise<AlertEvidence | null> {
    const { state } = await services.commands.executor.load(transferCheckStream(doc.checkId), transferCheckDecider);
    if (state.status !== 'completed' || !state.verdict) return null;
    const result = readTransferResult(presentTransferResult(state.verdict));
    if (!result) return null;
    const senders = alertSenders(result, doc.alertIndex);
    const routes = transferRoutes(senders);
    const hops = await transferRouteHops(services.transfers.deps.transfers, doc.chain, routes.shown);
    return { result, index: doc.alertIndex, senders, drawn: { routes, hops } };
  }

  return async (app) => {
    app.get('/alerts', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const viewer = await viewerOf(request);
      const parsed = alertListQuery.safeParse(
        Object.fromEntries(Object.entries((request.query ?? {}) as Record<string, string>).filter(([, v]) => v !== '')),
      );
      const query = parsed.success ? { ...parsed.data, page_size: PAGE_SIZE } : alertListQuery.parse({ page_size: PAGE_SIZE });
      const [list, members] = await Promise.all([actions.list(viewer, query), membersOf(viewer, viewer.subgroupIds)]);
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
      const [members, evidence] = await Promise.all([membersOf(await viewerOf(request), [doc.subgroupId]), evidenceOf(doc)]);
      return page(reply, alertCasePage(user, { doc, members, evidence }));
    });

    app.get('/alerts/:id/report', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const doc = await visible(request);
      return page(reply, alertReportPage(user, doc, await evidenceOf(doc), services.commands.clock.now().toISOString()));
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
