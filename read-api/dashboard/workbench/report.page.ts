import type { AlertCaseDoc } from '../../../projections/alert-cases.projection.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';
import { auditTrail, versionsList, type CheckVersions } from './alert-case.page.js';
import { levelBadge, statusBadge, utc } from './format.js';

/**
 * A case as a printable report (the browser's Print turns it into paper or PDF): the alert, the case's
 * state and audit trail, and the data versions and time of the verdict behind it. Print CSS drops the
 * navigation and keeps sections whole.
 */
export function alertReportPage(user: DashboardUser, doc: AlertCaseDoc, versions: CheckVersions | null, generatedAt: string): SafeHtml {
  const a = doc.alert;
  return layout({
    title: `Report: alert ${doc.alertId}`,
    user,
    section: 'alerts',
    body: html`<p class="no-print"><a href="/alerts/${doc.alertId}">← Back to the case</a> · Use your browser's Print to save or print this report.</p>
<article class="report">
<h1>Alert case report</h1>
<p>Case <code class="break">${doc.alertId}</code> · report generated ${utc(generatedAt)}</p>
<section aria-labelledby="r-alert"><h2 id="r-alert">Alert</h2>
<table class="kv"><tbody>
<tr><th scope="row">Risk level</th><td>${levelBadge(a.riskLevel)}</td></tr>
<tr><th scope="row">Category</th><td>${a.category}</td></tr>
<tr><th scope="row">Rule</th><td>${a.ruleType} (fires from ${a.thresholdShare}% and ${a.thresholdValue} USD)</td></tr>
<tr><th scope="row">Share of the transfer</th><td>${a.actualShare}%</td></tr>
<tr><th scope="row">Entity</th><td>${a.entityName ?? 'no name known'}<br><code class="break">${a.entityAddress ?? '—'}</code></td></tr>
<tr><th scope="row">Transaction</th><td>${doc.chain} <code class="break">${doc.txHash}</code></td></tr>
<tr><th scope="row">Transfer check</th><td><code class="break">${doc.checkId}</code></td></tr>
</tbody></table></section>
<section aria-labelledby="r-case"><h2 id="r-case">Case</h2>
<table class="kv"><tbody>
<tr><th scope="row">Status</th><td>${statusBadge(doc.status)} ${doc.closeReason ?? ''}</td></tr>
${doc.closeNote ? html`<tr><th scope="row">Closing note</th><td>${doc.closeNote}</td></tr>` : ''}
<tr><th scope="row">Assignee</th><td>${doc.assignee?.email ?? 'nobody'}</td></tr>
</tbody></table></section>
<section aria-labelledby="r-versions"><h2 id="r-versions">Verdict time and data versions</h2>${versionsList(versions)}</section>
<section aria-labelledby="r-trail"><h2 id="r-trail">Audit trail</h2>${auditTrail(doc)}</section>
</article>`,
  });
}
