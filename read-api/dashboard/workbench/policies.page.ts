import type { historyEntry, policyDetail, policyList, ruleOut } from '../../routes/policies-views.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';
import { levelBadge, utc } from './format.js';
import type { FieldErrors } from './policy-form.js';
import { fieldError, invalid } from './field-error.js';

type PolicyList = ReturnType<typeof policyList>;
type PolicyDetail = ReturnType<typeof policyDetail>;
type HistoryEntry = ReturnType<typeof historyEntry>;
type RuleOut = ReturnType<typeof ruleOut>;

export interface NewDraftForm {
  readonly name: string;
  readonly reason: string;
  readonly basedOn: string;
  readonly errors: FieldErrors;
}

export interface PolicyListView {
  readonly list: PolicyList;
  readonly subgroupIds: readonly string[];
  readonly form: NewDraftForm;
}

export const policyHref = (id: string, subgroupId: string, rest = ''): string =>
  `/policies/${id}${rest}?subgroup_id=${encodeURIComponent(subgroupId)}`;

function subgroupPicker(view: PolicyListView): SafeHtml {
  if (view.subgroupIds.length <= 1) return html``;
  return html`<form class="inline-form" method="get" action="/policies" aria-label="Subgroup">
<div><label for="sg">Subgroup</label><select id="sg" name="subgroup_id">${view.subgroupIds.map(
    (id) => html`<option value="${id}"${id === view.list.subgroup_id ? html` selected` : ''}>${id}</option>`,
  )}</select></div><button type="submit" class="secondary">Show</button></form>`;
}

function newDraftForm(user: DashboardUser, view: PolicyListView): SafeHtml {
  const { form } = view;
  const bases = view.list.policies.filter((p) => p.latest_version !== null);
  return html`<form method="post" action="/policies?subgroup_id=${view.list.subgroup_id}" class="card" aria-labelledby="new-title" novalidate>
<h2 id="new-title">New draft</h2>
${form.errors.form ? html`<p class="error-box" role="alert">${form.errors.form}</p>` : ''}
<input type="hidden" name="csrf" value="${user.csrfToken}">
<label for="d-name">Name</label><input id="d-name" name="name" maxlength="80" autocomplete="off" value="${form.name}"${invalid(form.errors, 'name')}>${fieldError(form.errors, 'name')}
<label for="d-based">Copied from <span class="hint">its latest version</span></label>
<select id="d-based" name="based_on"${invalid(form.errors, 'based_on')}>${bases.map(
    (p) => html`<option value="${p.id}"${p.id === form.basedOn ? html` selected` : ''}>${p.name} (version ${p.latest_version})</option>`,
  )}</select>${fieldError(form.errors, 'based_on')}
<label for="d-reason">Why <span class="hint">kept in the policy’s history</span></label>
<input id="d-reason" name="reason" maxlength="2000" autocomplete="off" value="${form.reason}"${invalid(form.errors, 'reason')}>${fieldError(form.errors, 'reason')}
<div class="actions"><button type="submit">Create the draft</button><span class="hint">free, as <code>POST /v2/policies</code></span></div>
</form>`;
}

/** Policies: the subgroup's, saying which version is active and which have a draft, and a form for a new draft. */
export function policiesPage(user: DashboardUser, view: PolicyListView): SafeHtml {
  const sg = view.list.subgroup_id;
  return layout({
    title: 'Policies',
    user,
    section: 'policies',
    body: html`<h1>Policies</h1>
<p class="lead">The rules your subgroup’s transfer checks apply. The standard policy is the default and the template; a draft
changes nothing until it is activated, and can be backtested over your past checks first. The same policies are at <code>GET /v2/policies</code>.</p>
${subgroupPicker(view)}
<div class="table-wrap"><table class="fit stack"><caption class="sr-only">Policies of subgroup ${sg}</caption>
<thead><tr><th scope="col">Policy</th><th scope="col">Active version</th><th scope="col">Latest version</th><th scope="col">Draft</th><th scope="col">Based on</th></tr></thead>
<tbody>${view.list.policies.map(
      (
        p,
      ) => html`<tr><td data-label="Policy"><a href="${policyHref(p.id, sg)}">${p.name}</a>${p.active ? html` <span class="badge ok">active</span>` : ''}</td>
<td data-label="Active version">${p.active_version ?? '—'}</td><td data-label="Latest version">${p.latest_version ?? 'never activated'}</td>
<td data-label="Draft">${p.has_draft ? html`<a href="${policyHref(p.id, sg, '/edit')}">edit the draft</a>` : '—'}</td>
<td data-label="Based on">${p.based_on ? `${p.based_on.policy_id} ${p.based_on.version}` : '—'}</td></tr>`,
    )}</tbody></table></div>
${newDraftForm(user, view)}`,
  });
}

export function rulesTable(rules: readonly RuleOut[], caption: string): SafeHtml {
  return html`<div class="table-wrap"><table class="fit stack"><caption>${caption}</caption>
<thead><tr><th scope="col">Rule</th><th scope="col">Type</th><th scope="col">Categories</th><th scope="col">Share ≥</th><th scope="col">USD ≥</th><th scope="col">Level</th><th scope="col">Action</th></tr></thead>
<tbody>${rules.map(
    (r) => html`<tr><td data-label="Rule"><code>${r.id}</code></td><td data-label="Type">${r.rule_type}</td>
<td class="wrap" data-label="Categories">${[...r.categories.slugs, ...r.categories.levels.map((l) => `every ${l}`)].join(', ')}${r.note ? html`<span class="hint">${r.note}</span>` : ''}</td>
<td data-label="Share ≥" class="num">${r.min_share_percent} %</td><td data-label="USD ≥" class="num">${r.min_usd.toLocaleString('en-US')}</td>
<td data-label="Level">${levelBadge(r.alert_level)}</td><td data-label="Action">${r.action}</td></tr>`,
  )}</tbody></table></div>`;
}

const ACTION_WORDS: Record<HistoryEntry['action'], string> = {
  draft_created: 'created the draft',
  draft_edited: 'edited the draft',
  activated: 'activated version',
};

export function historyTrail(history: readonly HistoryEntry[]): SafeHtml {
  if (history.length === 0) return html`<p>No change yet: the standard policy is the same for everyone.</p>`;
  return html`<ol class="trail">${[...history].reverse().map(
    (
      h,
    ) => html`<li><time datetime="${h.at}">${utc(h.at)}</time> — <strong>${h.by.email}</strong> ${ACTION_WORDS[h.action]}${h.version ? html` <strong>${h.version}</strong>` : ''}
(${h.name}${h.rule_count !== null ? `, ${h.rule_count} rules` : ''}${h.based_on ? `, from ${h.based_on.policy_id} ${h.based_on.version}` : ''})
<blockquote>${h.reason}</blockquote></li>`,
  )}</ol>`;
}

export type { PolicyDetail, HistoryEntry };
