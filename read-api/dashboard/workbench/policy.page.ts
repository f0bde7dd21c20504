import { html, type SafeHtml } from '../html.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';
import { fieldError, invalid } from './field-error.js';
import { utc } from './format.js';
import { historyTrail, policyHref, rulesTable, type HistoryEntry, type PolicyDetail } from './policies.page.js';
import type { FieldErrors } from './policy-form.js';

export interface ActivateForm {
  readonly reason: string;
  readonly version: string;
  readonly errors: FieldErrors;
}
export interface BacktestForm {
  readonly from: string;
  readonly to: string;
  readonly version: string;
  readonly errors: FieldErrors;
}

export interface PolicyView {
  readonly detail: PolicyDetail;
  readonly history: readonly HistoryEntry[];
  readonly activate: ActivateForm;
  readonly backtest: BacktestForm;
}

const option = (value: string, label: string, selected: string): SafeHtml =>
  html`<option value="${value}"${value === selected ? html` selected` : ''}>${label}</option>`;

function activateForm(user: DashboardUser, view: PolicyView): SafeHtml {
  const { detail: d, activate: form } = view;
  const choices = [
    ...(d.draft ? [option('', 'the draft, as the next version', form.version)] : []),
    ...[...d.versions].reverse().map((v) => option(v.version, `version ${v.version} (${v.name})`, form.version)),
  ];
  if (choices.length === 0) return html``;
  return html`<form method="post" action="${policyHref(d.id, d.subgroup_id, '/activate')}" class="card" aria-labelledby="act-title" novalidate>
<h2 id="act-title">Activate</h2>
<p class="hint">The subgroup’s next transfer checks apply it; checks already made keep the version they applied.</p>
${form.errors.form ? html`<p class="error-box" role="alert">${form.errors.form}</p>` : ''}
<input type="hidden" name="csrf" value="${user.csrfToken}">
<label for="a-version">What</label><select id="a-version" name="version"${invalid(form.errors, 'version')}>${choices}</select>${fieldError(form.errors, 'version')}
<label for="a-reason">Why <span class="hint">kept in the policy’s history</span></label>
<input id="a-reason" name="reason" maxlength="2000" autocomplete="off" value="${form.reason}"${invalid(form.errors, 'reason')}>${fieldError(form.errors, 'reason')}
<div class="actions"><button type="submit">Activate</button></div>
</form>`;
}

function backtestForm(user: DashboardUser, view: PolicyView): SafeHtml {
  const { detail: d, backtest: form } = view;
  const choices = [
    ...(d.draft ? [option('', 'the draft', form.version)] : []),
    ...[...d.versions].reverse().map((v) => option(v.version, `version ${v.version}`, form.version)),
  ];
  if (choices.length === 0) return html``;
  return html`<form method="post" action="${policyHref(d.id, d.subgroup_id, '/backtest')}" class="card" aria-labelledby="bt-title" novalidate>
<h2 id="bt-title">Backtest</h2>
<p class="hint">Replays the rules over the subgroup’s transfer checks of the range, from what they recorded (no chain is read), and compares with the active policy and with what analysts decided.</p>
${form.errors.form ? html`<p class="error-box" role="alert">${form.errors.form}</p>` : ''}
<input type="hidden" name="csrf" value="${user.csrfToken}">
<div class="inline-form">
<div><label for="b-version">Rules</label><select id="b-version" name="version"${invalid(form.errors, 'version')}>${choices}</select>${fieldError(form.errors, 'version')}</div>
<div><label for="b-from">From <span class="hint">UTC day, included</span></label><input id="b-from" name="from" type="date" value="${form.from}"${invalid(form.errors, 'from')}>${fieldError(form.errors, 'from')}</div>
<div><label for="b-to">To <span class="hint">UTC day, excluded</span></label><input id="b-to" name="to" type="date" value="${form.to}"${invalid(form.errors, 'to')}>${fieldError(form.errors, 'to')}</div>
</div>
<div class="actions"><button type="submit">Run the backtest</button><span class="hint">free, as <code>POST /v2/policies/${d.id}/backtest</code></span></div>
</form>`;
}

function facts(d: PolicyDetail): SafeHtml {
  return html`<dl class="facts">
<div><dt>Status</dt><dd>${d.active ? html`<span class="badge ok">active</span> version ${d.active_version}` : 'not active'}</dd></div>
<div><dt>Latest version</dt><dd>${d.latest_version ?? 'never activated'}</dd></div>
<div><dt>Based on</dt><dd>${d.based_on ? `${d.based_on.policy_id} ${d.based_on.version}` : '—'}</dd></div>
<div><dt>Versions</dt><dd>${d.versions.length === 0 ? 'none' : d.versions.map((v, i) => html`${i ? ', ' : ''}<a href="${policyHref(d.id, d.subgroup_id)}&amp;version=${encodeURIComponent(v.version)}">${v.version}</a>${v.activated_at ? html` <span class="hint">${v.activated_at.slice(0, 10)}</span>` : ''}`)}</dd></div>
</dl>`;
}

/** One policy: its draft and a version's rules, activation, a backtest form, and its history (who, when, why). */
export function policyPage(user: DashboardUser, view: PolicyView): SafeHtml {
  const d = view.detail;
  const editable = d.id !== 'standard';
  return layout({
    title: `Policy ${d.name}`,
    user,
    section: 'policies',
    body: html`<p class="no-print"><a href="/policies?subgroup_id=${d.subgroup_id}">← Policies</a></p>
<h1>Policy ${d.name}</h1>
${facts(d)}
${
  d.draft
    ? html`<section aria-labelledby="draft-title"><h2 id="draft-title">Draft</h2>
<p>Last saved ${utc(d.draft.updated_at)}. <a href="${policyHref(d.id, d.subgroup_id, '/edit')}">Edit the draft</a></p>
${rulesTable(d.draft.rules, `Rules of the draft ${d.draft.name}`)}</section>`
    : editable
      ? html`<p><a href="${policyHref(d.id, d.subgroup_id, '/edit')}">Edit a draft of the latest version</a></p>`
      : html`<p class="hint">The standard policy is a template: create a draft from it on the <a href="/policies?subgroup_id=${d.subgroup_id}">policies page</a>.</p>`
}
${d.version ? html`<section aria-labelledby="version-title"><h2 id="version-title">Version ${d.version.version}</h2>${rulesTable(d.version.rules, `Rules of version ${d.version.version} (${d.version.name})`)}</section>` : ''}
<div class="two-col">${activateForm(user, view)}${backtestForm(user, view)}</div>
<section aria-labelledby="hist-title"><h2 id="hist-title">History</h2>${historyTrail(view.history)}</section>`,
  });
}
