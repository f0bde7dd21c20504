import { API_KEY_PREFIX } from '../../../domain/apikeys/api-key.js';
import type { BillingBody } from '../../schemas/billing.js';
import type { UsageRowDoc } from '../../../projections/usage-rows.js';
import { html, type SafeHtml } from '../html.js';
import type { DashboardUser } from '../session-auth.js';
import { barChart, type DayTotals } from '../usage-chart.js';
import { accountTabs, layout, shortDate } from './layout.js';
import { checkPageOf, usageExportForm } from '../workbench/usage-links.js';
import { shortHash } from '../workbench/format.js';

export interface UsageView {
  readonly planKind: 'none' | 'quota' | 'ledger';
  readonly billing: BillingBody;
  readonly days: readonly DayTotals[];
  readonly rows: readonly UsageRowDoc[];
  readonly page: number;
  readonly totalPages: number;
  readonly total: number;
  readonly since: string | null;
  /** The last day kept (UTC, included). */
  readonly to: string | null;
  /** key id → 4-character prefix, to name the key of each row. */
  readonly keyPrefixes: ReadonlyMap<string, string>;
}

const usd = (value: number) => `$${value.toFixed(2)}`;
const usdPrecise = (value: number) => `$${value.toFixed(value !== 0 && Math.abs(value) < 0.01 ? 4 : 2)}`;

function stat(label: string, value: string): SafeHtml {
  return html`<div class="stat"><div class="label">${label}</div><div class="value">${value}</div></div>`;
}

function summary(view: UsageView): SafeHtml {
  const b = view.billing;
  if (view.planKind === 'none') return html`<p class="error-box">No paid plan yet: paid calls answer 402 until a plan is set.</p>`;
  if (b.model === 'quota') {
    return html`<div class="stats">${stat('Plan', 'Monthly quota')}${stat('Units used this month', `${b.units_used} of ${b.monthly_quota}`)}${stat(
      'Remaining units',
      String(Math.max(0, b.monthly_quota - b.units_used)),
    )}${stat('Period started', b.period_start.slice(0, 10))}</div>`;
  }
  return html`<div class="stats">${stat('Plan', 'Prepaid USD')}${stat('Balance', usd(b.balance_usd))}${stat('Spent this month', usd(b.monthly_spent_usd))}${stat(
    'Monthly cap',
    b.monthly_cap_usd === null ? 'none' : usd(b.monthly_cap_usd),
  )}</div>`;
}

function rowsTable(view: UsageView): SafeHtml {
  if (view.rows.length === 0)
    return html`<p>No recorded calls${view.since ? ` since ${view.since}` : ''}${view.to ? ` up to ${view.to}` : ''}.</p>`;
  // Units mean something on a quota plan only; on a USD plan the column would repeat 0 or 1.
  const units = view.planKind === 'quota';
  return html`<div class="table-wrap"><table class="stack">
<caption class="sr-only">Recorded calls, newest first</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Endpoint</th><th scope="col">Network</th><th scope="col">Subject</th><th scope="col">Key</th>
${units ? html`<th scope="col" class="num">Units</th>` : ''}<th scope="col" class="num">Charged</th><th scope="col" class="num">Refunded</th></tr></thead>
<tbody>${view.rows.map((row) => {
    const prefix = row.key_id ? view.keyPrefixes.get(row.key_id) : undefined;
    const check = checkPageOf(row);
    return html`<tr><td data-label="Time">${check ? html`<a href="${check}">${shortDate(row.created_at)}</a>` : shortDate(row.created_at)}</td><td data-label="Endpoint"><code>${row.endpoint}</code></td><td data-label="Network">${row.network ?? '—'}</td>
<td data-label="Subject">${shortHash(row.subject)}</td><td data-label="Key">${prefix ? html`<code>${API_KEY_PREFIX}${prefix}…</code>` : '—'}</td>
${units ? html`<td class="num" data-label="Units">${row.units}</td>` : ''}<td class="num" data-label="Charged">${usdPrecise(row.charged_usd)}</td>
<td class="num" data-label="Refunded">${row.refunded_usd ? html`<span title="${row.refund_reason ?? ''}">${usdPrecise(row.refunded_usd)}</span>` : '—'}</td></tr>`;
  })}</tbody></table></div>`;
}

function pager(view: UsageView): SafeHtml {
  if (view.totalPages <= 1) return html``;
  const link = (page: number) =>
    `/account/usage?page=${page}${view.since ? `&since=${encodeURIComponent(view.since)}` : ''}${view.to ? `&to=${encodeURIComponent(view.to)}` : ''}`;
  return html`<nav class="pager" aria-label="Pages of calls">
${view.page > 1 ? html`<a href="${link(view.page - 1)}" rel="prev">← Newer</a>` : ''}
<span>Page ${view.page} of ${view.totalPages} (${view.total} calls)</span>
${view.page < view.totalPages ? html`<a href="${link(view.page + 1)}" rel="next">Older →</a>` : ''}
</nav>`;
}

/** Account → Usage: the plan's figures, calls and spend per day, and the rows of GET /v2/me/usage. */
export function usagePage(user: DashboardUser, view: UsageView): SafeHtml {
  const label = (d: DayTotals) => d.day;
  return layout({
    title: 'Usage',
    user,
    section: 'usage',
    body: html`${accountTabs('usage')}
<p class="lead">Every charged call of your keys, as <code>GET /v2/me/usage</code> reports it. Refunded calls show their refund.</p>
${summary(view)}
<div class="charts">
${barChart({ id: 'calls', title: 'Calls per day', barClass: 'bar-calls', format: (v) => String(v), values: view.days.map((d) => ({ label: label(d), value: d.calls })) })}
${barChart({ id: 'spend', title: 'Spend per day (USD, net of refunds)', barClass: 'bar-spend', format: (v) => usd(v), values: view.days.map((d) => ({ label: label(d), value: d.spendMicros / 1e6 })) })}
</div>
<h2 id="calls-title-rows">Calls</h2>
<form class="inline-form" method="get" action="/account/usage">
<div><label for="since">Since <span class="hint">keeps calls on or after this day (UTC)</span></label>
<input id="since" name="since" type="date" value="${view.since ?? ''}"></div>
<div><label for="usage-to">To <span class="hint">keeps calls on or before this day (UTC)</span></label>
<input id="usage-to" name="to" type="date" value="${view.to ?? ''}"></div>
<button type="submit" class="secondary">Filter</button>
${view.since || view.to ? html`<a href="/account/usage">Show all</a>` : ''}
</form>
${pager(view)}
${rowsTable(view)}
${pager(view)}
${usageExportForm(view.days.at(-1)?.day ?? null)}`,
  });
}
