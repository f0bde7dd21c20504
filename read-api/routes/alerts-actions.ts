import { present } from '../../domain/shared/present.js';
import { caseViewerOf, commentOnAlertCase, triageAlertCase, type CaseViewer } from '../../commands/alert-cases.commands.js';
import { fail, hasCode } from '../../domain/shared/errors.js';
import type { AlertCaseDoc, AlertCaseFilter } from '../../projections/alert-cases.projection.js';
import type { AppServices } from '../services.js';
import { RequestValidationError } from '../validation.js';
import type { AlertListQuery, TriageBody } from './alerts-schemas.js';
import { alertDetail, alertSummary } from './alerts-views.js';

/**
 * What /v2/alerts and the dashboard's alert actions do, once the caller is known: the same commands,
 * read models and answers on both surfaces. A case outside the caller's subgroups is not_found.
 */
export function alertActions(services: AppServices) {
  const { cases } = services.alerts;
  const deps = services.commands;

  async function visibleCase(viewer: CaseViewer, alertId: string): Promise<AlertCaseDoc> {
    const doc = await cases.get(alertId);
    if (!doc || !viewer.subgroupIds.includes(doc.subgroupId)) throw fail('not_found', 'no such alert');
    return doc;
  }

  /** The decider's refusals name their field: reported like any other invalid body (422 with detail[]). */
  async function asBodyValidation<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (hasCode(error, 'validation_error')) {
        const field = typeof error.details?.field === 'string' ? error.details.field : 'body';
        throw new RequestValidationError([{ loc: ['body', field], msg: error.message, type: 'value_error' }]);
      }
      throw error;
    }
  }

  return {
    viewerOf: (userId: string) => caseViewerOf(deps, userId),

    async list(viewer: CaseViewer, query: AlertListQuery) {
      const filter: AlertCaseFilter = {
        ...(query.status ? { status: query.status } : {}),
        ...(query.risk_level ? { riskLevel: query.risk_level } : {}),
        ...(query.assignee ? { assigneeId: query.assignee === 'none' ? null : query.assignee.toLowerCase() } : {}),
        ...(query.check_id ? { checkId: query.check_id.toLowerCase() } : {}),
        ...(query.chain ? { chain: query.chain } : {}),
        ...(query.since ? { since: new Date(query.since).toISOString() } : {}),
      };
      const found =
        viewer.subgroupIds.length === 0
          ? { rows: [], total: 0 }
          : await cases.page(viewer.subgroupIds, filter, { page: query.page, pageSize: query.page_size });
      return {
        alerts: found.rows.map(alertSummary),
        pagination: {
          page: query.page,
          page_size: query.page_size,
          total: found.total,
          total_pages: Math.ceil(found.total / query.page_size),
        },
      };
    },

    /**
     * The members of one of the viewer's subgroups, whom its cases can be assigned to, by name; a
     * subgroup the viewer does not belong to is not_found.
     */
    async members(viewer: CaseViewer, subgroupId: string) {
      if (!viewer.subgroupIds.includes(subgroupId.toLowerCase())) throw fail('not_found', 'no such subgroup');
      const rows = await services.alerts.members.membersOf(subgroupId.toLowerCase());
      const people = await Promise.all(
        rows.map(async (row) => {
          const account = await services.accounts.get(row.userId);
          const email = account?.email ?? '';
          return { user_id: row.userId, email, name: account?.displayName ?? email, joined_at: row.joinedAt };
        }),
      );
      return { data: people.sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email)) };
    },

    async get(viewer: CaseViewer, alertId: string) {
      return alertDetail(await visibleCase(viewer, alertId.toLowerCase()));
    },

    /** Applies the change, waits until the read model shows it, and answers the case as it now is. */
    async triage(viewer: CaseViewer, alertId: string, body: TriageBody) {
      const id = alertId.toLowerCase();
      await visibleCase(viewer, id);
      const position = await asBodyValidation(() =>
        triageAlertCase(deps, viewer, id, {
          ...(body.status !== undefined ? { status: body.status } : {}),
          ...(body.reason !== undefined ? { reason: body.reason } : {}),
          ...(body.note !== undefined ? { note: body.note } : {}),
          ...(body.assignee !== undefined ? { assignee: body.assignee === null ? null : body.assignee.toLowerCase() } : {}),
        }),
      );
      await services.whenProjected(position);
      return alertDetail(await visibleCase(viewer, id));
    },

    async comment(viewer: CaseViewer, alertId: string, text: string) {
      const id = alertId.toLowerCase();
      await visibleCase(viewer, id);
      const { commentId, position } = await asBodyValidation(() => commentOnAlertCase(deps, viewer, id, text));
      await services.whenProjected(position);
      const doc = await visibleCase(viewer, id);
      const comment = present(
        doc.comments.find((c) => c.commentId === commentId),
        'doc.comments.find((c) => c.commentId === commentId)',
      );
      return { id: commentId, text: comment.text, by: { user_id: comment.by.userId, email: comment.by.email }, at: comment.at };
    },
  };
}
