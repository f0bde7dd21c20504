import type { AlertCaseDoc } from '../../../projections/alert-cases.projection.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';
import { alertFacts, evidenceSections, type AlertEvidence } from './alert-evidence.js';
import { auditTrail, versionsOf } from './alert-case.page.js';
import { statusBadge, utc } from './format.js';

/**
 * A case as a printable report, the case file a team attaches to a suspicious activity report (the
 * browser's Print turns it into paper or PDF): what fired and why, the transaction and its legs, the
 * senders the alert rests on with the routes of their funds, the case's state, the data and policy
 * versions of the verdict, and the full audit trail. Print CSS drops the navigation and keeps sections whole.
 */
export function alertReportPage(user: DashboardUser, doc: AlertCaseDoc, evidence: AlertEvidence | null, generatedAt: string): SafeHtml {
  return layout({
    title: `Report: alert ${doc.alertId}`,
    user,
    section: 'alerts',
    body: html`<p class="no-print"><a href="/alerts/${doc.alertId}">← Back to the case</a> · Use your browser's Print to save or print this report.</p>
<article class="report">
<h1>Alert case report</h1>
<p>Case <code class="break">${doc.alertId}</code> · report generated ${utc(generatedAt)}</p>
<section aria-labelledby="r-alert"><h2 id="r-alert">Alert</h2>${alertFacts(doc, evidence)}</section>
${evidenceSections(evidence)}
<section aria-labelledby="r-case"><h2 id="r-case">Case</h2>
<dl class="facts">
<div><dt>Status</dt><dd>${statusBadge(doc.status)} ${doc.closeReason ?? ''}</dd></div>
${doc.closeNote ? html`<div><dt>Closing note</dt><dd>${doc.closeNote}</dd></div>` : ''}
<div><dt>Assignee</dt><dd>${doc.assignee?.email ?? 'nobody'}</dd></div>
<div><dt>Opened</dt><dd>${utc(doc.createdAt)}</dd></div>
<div><dt>Last change</dt><dd>${utc(doc.updatedAt)}</dd></div>
</dl></section>
<section aria-labelledby="r-versions"><h2 id="r-versions">Verdict time and data versions</h2>${versionsOf(evidence)}</section>
<section aria-labelledby="r-trail"><h2 id="r-trail">Audit trail</h2>${auditTrail(doc)}</section>
</article>`,
  });
}
