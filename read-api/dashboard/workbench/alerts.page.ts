import { ALERT_LEVELS } from '../../../domain/kyt/alert-level.js';
import { CASE_STATUSES } from '../../../domain/alerts/alert-case.events.js';
import type { AlertCaseDoc } from '../../../projections/alert-cases.projection.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';
import { memberName, type MemberView } from './alert-case.page.js';
import { levelBadge, shortHash, statusBadge, statusLabel, utc } from './format.js';

export interface AlertListView {
  readonly rows: readonly AlertCaseDoc[];
  readonly total: number;
  readonly page: number;
  readonly totalPages: number;
  readonly filter: { status?: string; risk_level?: string; assignee?: string; check_id?: string };
  readonly members: readonly MemberView[];
  readonly today: string;
}

function option(value: string, label: string, selected: string | undefined): SafeHtml {
  return html`<option value="${value}"${value === (selected ?? '') ? html` selected` : ''}>${label}</option>`;
}

function filters(view: AlertListView): SafeHtml {
  const f = view.filter;
  return html`<form class="inline-form" method="get" action="/alerts" aria-label="Filter alerts">
<div><label for="f-status">Status</label><select id="f-status" name="status">${option('', 'Any', f.status)}${CASE_STATUSES.map((s) => option(s, statusLabel(s), f.status))}</select></div>
<div><label for="f-level">Risk level</label><select id="f-level" name="risk_level">${option('', 'Any', f.risk_level)}${ALERT_LEVELS.map((l) => option(l, l, f.risk_level))}</select></div>
<div><label for="f-assignee">Assignee</label><select id="f-assignee" name="assignee">${option('', 'Anyone', f.assignee)}${option('none', 'Unassigned', f.assignee)}${view.members.map((m) => option(m.userId, memberName(m), f.assignee))}</select></div>
${f.check_id ? html`<input type="hidden" name="check_id" value="${f.check_id}">` : ''}
<button type="submit" class="secondary">Filter</button>
</form>`;
}

function table(view: AlertListView): SafeHtml {
  if (view.rows.length === 0) return html`<p>No alerts match. Alerts appear here when a transfer check of your subgroup raises one.</p>`;
  return html`<div class="table-wrap"><table class="fit stack">
<caption class="sr-only">Alerts, newest first</caption>
<thead><tr><th scope="col">Raised</th><th scope="col">Level</th><th scope="col">Category</th><th scope="col">Rule</th><th scope="col">Transaction</th><th scope="col">Status</th><th scope="col">Assignee</th></tr></thead>
<tbody>${view.rows.map(
    (row) => html`<tr>
<td data-label="Raised"><a href="/alerts/${row.alertId}">${utc(row.createdAt)}</a></td>
<td data-label="Level">${levelBadge(row.riskLevel)}</td>
<td class="wrap" data-label="Category">${row.alert.category}</td>
<td data-label="Rule">${row.alert.ruleType}</td>
<td data-label="Transaction">${row.chain} ${shortHash(row.txHash)}</td>
<td data-label="Status">${statusBadge(row.status)}</td>
<td data-label="Assignee">${row.assignee?.email ?? '—'}</td>
</tr>`,
  )}</tbody></table></div>`;
}

function pager(view: AlertListView): SafeHtml {
  if (view.totalPages <= 1) return html``;
  const params = (page: number) => {
    const q = new URLSearchParams(
      Object.entries(view.filter).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''),
    );
    q.set('page', String(page));
    return `/alerts?${q.toString()}`;
  };
  return html`<nav class="pager" aria-label="Pages of alerts">
${view.page > 1 ? html`<a href="${params(view.page - 1)}" rel="prev">← Newer</a>` : ''}
<span>Page ${view.page} of ${view.totalPages} (${view.total} alerts)</span>
${view.page < view.totalPages ? html`<a href="${params(view.page + 1)}" rel="next">Older →</a>` : ''}
</nav>`;
}

/** Alerts: every alert of the subgroup's transfer checks as a case to triage, with filters and a CSV export. */
export function alertsPage(user: DashboardUser, view: AlertListView): SafeHtml {
  return layout({
    title: 'Alerts',
    user,
    section: 'alerts',
    body: html`<h1>Alerts</h1>
<p class="lead">Each alert of a transfer check is a case: review it, assign it to a member of your subgroup, and close it as
flagged, dismissed or other with a note. Every change is kept in the case's audit trail. The same cases are at <code>GET /v2/alerts</code>.</p>
${filters(view)}
${view.filter.check_id ? html`<p>Alerts of the transfer check <code class="break">${view.filter.check_id}</code>. <a href="/alerts">Show all</a></p>` : ''}
${pager(view)}
${table(view)}
${pager(view)}
<h2 id="export-title">Export</h2>
<form class="inline-form" method="get" action="/alerts/export.csv" aria-labelledby="export-title">
<div><label for="x-since">From <span class="hint">first day, UTC</span></label><input id="x-since" name="since" type="date" required value="${view.today.slice(0, 8)}01"></div>
<div><label for="x-until">To <span class="hint">last day, UTC</span></label><input id="x-until" name="until" type="date" required value="${view.today}"></div>
<button type="submit" class="secondary">Download alerts CSV</button>
</form>`,
  });
}
