import type { CheckHistoryDoc } from '../../../projections/check-history.projection.js';
import { html, type SafeHtml } from '../html.js';
import { presentScreenSummary, storedScreenSummary } from '../../presenters/screen.presenter.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';
import { levelBadge, utc } from './format.js';
import { sanctionsSection, verdictHead } from './verdict-sections.js';

/**
 * A light screen read back from History: the stored summary of its verdict (level, score, sanctions match,
 * categories). The labels are not kept: screening again shows them (and is charged again).
 */
export function storedScreenPage(user: DashboardUser, row: CheckHistoryDoc): SafeHtml {
  const kept = storedScreenSummary(row);
  const s = kept ? presentScreenSummary(kept) : undefined;
  return layout({
    title: `Light screen of ${row.subject ?? 'an address'}`,
    user,
    section: 'history',
    body: html`<p class="no-print"><a href="/history">← History</a> · Use your browser's Print for a report of this verdict.</p>
<h1>Light screen</h1>
<p class="lead"><code class="break">${row.subject ?? '—'}</code> on ${row.network ?? '—'}, ${row.created_at ? utc(row.created_at) : 'time unknown'}.</p>
${
  s
    ? html`${s.data_available ? '' : html`<p class="error-box">No data existed for this address: treat it as unknown, not clean.</p>`}
${verdictHead(s)}
${sanctionsSection(s, s.sanctions_checked ? { checked: s.sanctions_checked, not_checked: s.sanctions_not_checked ?? [] } : undefined)}
<section aria-labelledby="sc-title"><h2 id="sc-title">Categories</h2>
${s.categories.length === 0 ? html`<p>No risk category.</p>` : html`<ul>${s.categories.map((c) => html`<li><code>${c.slug}</code> ${levelBadge(c.risk_level)}</li>`)}</ul>`}
</section>
<p class="hint">This page shows the summary kept when the screen ran. The labels and their sources are not kept:
<a href="/screen">screen the address again</a> to read them (charged as a new screen).</p>`
    : html`<p role="status">This light screen ran before the dashboard kept verdicts: its risk level is unknown.
<a href="/screen">Screen the address again</a> to read its verdict (charged as a new screen).</p>`
}`,
  });
}
