import { ALERT_LEVELS } from '../../../domain/kyt/alert-level.js';
import { RULE_TYPES } from '../../../domain/kyt/policy.types.js';
import { actionOf, CATEGORY_LEVELS, type AlertLevel } from '../../../domain/shared/verdict-vocabulary.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from '../pages/layout.js';
import type { DashboardUser } from '../session-auth.js';
import type { DraftForm, FieldErrors, RuleRow } from './policy-form.js';
import { fieldError, invalid } from './field-error.js';

export interface DraftEditorView {
  readonly policyId: string;
  readonly subgroupId: string;
  /** The form as it stands: the draft's rules, or what the user sent back when it was refused. */
  readonly form: DraftForm;
  readonly errors: FieldErrors;
  /** Whether the rules come from a draft, or from the latest version (saving makes a draft of them). */
  readonly fromDraft: boolean;
}

const BLANK_ROW: RuleRow = {
  id: '',
  ruleType: RULE_TYPES[0],
  slugs: '',
  levels: [],
  minSharePercent: '',
  minUsd: '',
  alertLevel: 'Low',
  note: '',
};

function options(values: readonly string[], selected: string): SafeHtml[] {
  return values.map((v) => html`<option value="${v}"${v === selected ? html` selected` : ''}>${v}</option>`);
}

function actionHint(level: string): SafeHtml {
  const known = (ALERT_LEVELS as readonly string[]).includes(level);
  return html`<span class="hint">action: ${known ? actionOf(level as AlertLevel) : '—'}</span>`;
}

function ruleFields(row: RuleRow, i: number, errors: FieldErrors, isNew: boolean): SafeHtml {
  const k = (field: string) => `rules.${i}.${field}`;
  const input = (field: string, label: string, value: string, extra: SafeHtml) =>
    html`<div><label for="${k(field)}">${label}</label>
<input id="${k(field)}" name="${k(field)}" value="${value}"${extra}${invalid(errors, k(field))}>${fieldError(errors, k(field))}</div>`;
  return html`<fieldset class="card rule"><legend>${isNew ? 'New rule (leave blank to add none)' : html`Rule <code>${row.id}</code>`}</legend>
<div class="rule-grid">
${input('id', 'Rule id', row.id, html` maxlength="16" autocomplete="off" spellcheck="false"`)}
<div><label for="${k('rule_type')}">Rule type</label><select id="${k('rule_type')}" name="${k('rule_type')}"${invalid(errors, k('rule_type'))}>${options(RULE_TYPES, row.ruleType)}</select>${fieldError(errors, k('rule_type'))}</div>
<div><span class="label">Direction</span><p class="value">incoming <span class="hint">the only direction checked</span></p></div>
<div class="wide-field"><label for="${k('slugs')}">Categories <span class="hint">slugs, separated by commas</span></label>
<input id="${k('slugs')}" name="${k('slugs')}" value="${row.slugs}" autocomplete="off" spellcheck="false"${invalid(errors, k('categories'))}>
<fieldset class="levels"><legend>or every category of level</legend>${CATEGORY_LEVELS.map(
    (level) =>
      html`<label><input type="checkbox" name="${k('levels')}" value="${level}"${row.levels.includes(level) ? html` checked` : ''}> ${level}</label>`,
  )}</fieldset>${fieldError(errors, k('categories'))}</div>
${input('min_share_percent', 'Share threshold (%)', row.minSharePercent, html` inputmode="decimal" autocomplete="off"`)}
${input('min_usd', 'USD threshold', row.minUsd, html` inputmode="decimal" autocomplete="off"`)}
<div><label for="${k('alert_level')}">Level</label><select id="${k('alert_level')}" name="${k('alert_level')}"${invalid(errors, k('alert_level'))}>${options(ALERT_LEVELS, row.alertLevel)}</select> ${actionHint(row.alertLevel)}${fieldError(errors, k('alert_level'))}</div>
${input('note', 'Note', row.note, html` maxlength="500" autocomplete="off"`)}
</div>
${isNew ? '' : html`<label class="remove"><input type="checkbox" name="${k('remove')}" value="1"> Remove this rule</label>`}
</fieldset>`;
}

/** The draft editor: the name, every rule's fields with its refusal next to it, a new blank rule, and why. */
export function draftEditorPage(user: DashboardUser, view: DraftEditorView): SafeHtml {
  const { form, errors } = view;
  const rows = [...form.rows, BLANK_ROW];
  const back = `/policies/${view.policyId}?subgroup_id=${view.subgroupId}`;
  return layout({
    title: `Edit draft ${form.name}`,
    user,
    section: 'policies',
    body: html`<p class="no-print"><a href="${back}">← The policy</a></p>
<h1>Edit the draft</h1>
<p class="lead">${view.fromDraft ? 'Saving replaces the draft' : 'The policy has no draft: saving makes one from these rules'}; the active version is untouched until the draft is activated.
A rule raises its level when a category it covers reaches both thresholds (0 for any exposure). The same edit is <code>PATCH /v2/policies/${view.policyId}</code>.</p>
${errors.form || errors.rules ? html`<p class="error-box" role="alert">${[errors.form, errors.rules].filter(Boolean).join('; ')}</p>` : ''}
<form method="post" action="/policies/${view.policyId}/edit?subgroup_id=${view.subgroupId}" novalidate>
<input type="hidden" name="csrf" value="${user.csrfToken}">
<input type="hidden" name="row_count" value="${rows.length}">
<label for="name">Name</label><input id="name" name="name" maxlength="80" value="${form.name}"${invalid(errors, 'name')}>${fieldError(errors, 'name')}
${rows.map((row, i) => ruleFields(row, i, errors, i === form.rows.length))}
<label for="reason">Why <span class="hint">kept in the policy’s history</span></label>
<textarea id="reason" name="reason" rows="2" maxlength="2000"${invalid(errors, 'reason')}>${form.reason}</textarea>${fieldError(errors, 'reason')}
<div class="actions"><button type="submit">Save the draft</button><a href="${back}">Cancel</a></div>
</form>`,
  });
}
