import { CASE_STATUSES, CLOSE_REASONS, MAX_NOTE_LENGTH } from '../../../domain/alerts/alert-case.events.js';
import type { AlertCaseDoc, CaseHistoryEntry } from '../../../projections/alert-cases.projection.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';
import { alertFacts, evidenceSections, type AlertEvidence } from './alert-evidence.js';
import { levelBadge, statusBadge, statusLabel, utc } from './format.js';
import { transferVersions } from './transfer-evidence.js';

/** A member of the case's subgroup, as the assignee picker names them. */
export interface MemberView {
  readonly userId: string;
  readonly email: string;
  readonly name: string;
}

/** `Ana Lima (ana@example.com)`, or the email alone when the account has no other name. */
export const memberName = (m: MemberView): string => (m.name && m.name !== m.email ? `${m.name} (${m.email})` : m.email);

export interface AlertCaseView {
  readonly doc: AlertCaseDoc;
  readonly members: readonly MemberView[];
  readonly evidence: AlertEvidence | null;
}

function state(doc: AlertCaseDoc): SafeHtml {
  return html`<dl class="facts">
<div><dt>Status</dt><dd>${statusBadge(doc.status)}${doc.closeReason ? html` <strong>${doc.closeReason}</strong>` : ''}</dd></div>
${doc.closeNote ? html`<div><dt>Closing note</dt><dd>${doc.closeNote}</dd></div>` : ''}
<div><dt>Assignee</dt><dd>${doc.assignee?.email ?? 'nobody'}</dd></div>
<div><dt>Last change</dt><dd>${utc(doc.updatedAt)}</dd></div>
</dl>`;
}

export function describeEntry(entry: CaseHistoryEntry): string {
  switch (entry.action) {
    case 'opened':
      return 'Case opened from the transfer check';
    case 'assigned':
      return entry.to ? `Assigned to ${entry.to}${entry.from ? ` (was ${entry.from})` : ''}` : `Unassigned (was ${entry.from ?? 'nobody'})`;
    case 'status_changed':
      return `Status ${statusLabel(entry.from ?? '')} → ${statusLabel(entry.to ?? '')}${entry.reason ? `, reason: ${entry.reason}` : ''}`;
    case 'commented':
      return 'Comment';
  }
}

export function auditTrail(doc: AlertCaseDoc): SafeHtml {
  return html`<ol class="trail">${doc.history.map(
    (entry) => html`<li><time datetime="${entry.at}">${utc(entry.at)}</time> · <strong>${entry.by?.email ?? 'the service'}</strong><br>
${describeEntry(entry)}${entry.note ? html`<blockquote>${entry.note}</blockquote>` : ''}${entry.text ? html`<blockquote>${entry.text}</blockquote>` : ''}</li>`,
  )}</ol>`;
}

/** The policy, taxonomy and price versions behind the verdict, and a link to the check. */
export function versionsOf(evidence: AlertEvidence | null): SafeHtml {
  return evidence ? transferVersions(evidence.result) : html`<p>The transfer check's result is not available.</p>`;
}

function triageForm(view: AlertCaseView): SafeHtml {
  const { doc } = view;
  return html`<form data-api="/api/alerts/${doc.alertId}" data-method="PATCH" data-refresh="#case-state,#trail" data-success="Saved." aria-labelledby="triage-title">
<h2 id="triage-title">Triage</h2>
<label for="t-status">Status</label>
<select id="t-status" name="status">${CASE_STATUSES.map((s) => html`<option value="${s}"${s === doc.status ? html` selected` : ''}>${statusLabel(s)}</option>`)}</select>
<label for="t-reason">Reason <span class="hint">needed to close: flagged (a real finding), dismissed (a false positive) or other</span></label>
<select id="t-reason" name="reason"><option value="">—</option>${CLOSE_REASONS.map((r) => html`<option value="${r}">${r}</option>`)}</select>
<label for="t-note">Note <span class="hint">needed to close or to reopen a closed case</span></label>
<textarea id="t-note" name="note" rows="3" maxlength="${MAX_NOTE_LENGTH}"></textarea>
<label for="t-assignee">Assignee <span class="hint">a member of the subgroup</span></label>
<select id="t-assignee" name="assignee"><option value="none"${doc.assignee ? '' : html` selected`}>Nobody</option>${view.members.map(
    (m) => html`<option value="${m.userId}"${m.userId === doc.assigneeId ? html` selected` : ''}>${memberName(m)}</option>`,
  )}</select>
<div class="actions"><button type="submit">Save</button></div>
<p class="status" data-status role="status" aria-live="polite"></p>
</form>`;
}

function commentForm(doc: AlertCaseDoc): SafeHtml {
  return html`<form data-api="/api/alerts/${doc.alertId}/comments" data-method="POST" data-refresh="#case-state,#trail" data-reset data-success="Comment added." aria-labelledby="comment-title">
<h2 id="comment-title">Comment</h2>
<label for="c-text">Comment <span class="hint">seen by every member of the subgroup</span></label>
<textarea id="c-text" name="text" rows="3" maxlength="${MAX_NOTE_LENGTH}" required></textarea>
<div class="actions"><button type="submit" class="secondary">Add comment</button></div>
<p class="status" data-status role="status" aria-live="polite"></p>
</form>`;
}

/** One alert case: what fired and on what evidence, its state, the triage and comment forms, and the audit trail. */
export function alertCasePage(user: DashboardUser, view: AlertCaseView): SafeHtml {
  const { doc } = view;
  return layout({
    title: `Alert: ${doc.alert.category}`,
    user,
    section: 'alerts',
    body: html`<p><a href="/alerts">← All alerts</a></p>
<h1>${doc.alert.category} ${levelBadge(doc.riskLevel)}</h1>
<p class="lead">Raised ${utc(doc.createdAt)} by the <a href="/checks/transfer/${doc.checkId}">transfer check</a> of ${utc(doc.checkedAt)}. <a href="/alerts/${doc.alertId}/report">Printable report</a></p>
<div class="two-col">
<section class="card" aria-labelledby="alert-title"><h2 id="alert-title">What fired</h2>${alertFacts(doc, view.evidence)}</section>
<section class="card" aria-labelledby="state-title"><h2 id="state-title">Case</h2><div id="case-state">${state(doc)}</div></section>
</div>
<div class="two-col">
<div class="card">${triageForm(view)}</div>
<div class="card">${commentForm(doc)}</div>
</div>
${evidenceSections(view.evidence)}
<section class="card" aria-labelledby="trail-title"><h2 id="trail-title">Audit trail</h2><div id="trail">${auditTrail(doc)}</div></section>
<section class="card" aria-labelledby="versions-title"><h2 id="versions-title">Verdict time and data versions</h2>${versionsOf(view.evidence)}</section>`,
  });
}
