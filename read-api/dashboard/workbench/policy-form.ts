import type { z } from 'zod';
import { TAXONOMY } from '../../../domain/intel/taxonomy.js';
import { validateRules } from '../../../domain/policies/policy-rules.js';
import { editPolicyBody, type EditPolicyBody } from '../../routes/policies-schemas.js';
import { ruleIn, type ruleOut } from '../../routes/policies-views.js';
import type { ValidationDetail } from '../../validation.js';

/**
 * The draft editor's form, read back into the API's PATCH /v2/policies/{id} body and checked by the very
 * same zod schema and rule checks, with every refusal keyed to the form field it concerns (`rules.2.min_usd`)
 * so that the page shows it next to that field. The form numbers its rows; a row marked for removal, or the
 * blank row for a new rule left empty, is not sent, so the body's rule k is the form's row `rows[k]`.
 */

/** One row of the editor as the user typed it (strings, so that a bad entry is shown back as typed). */
export interface RuleRow {
  readonly id: string;
  readonly ruleType: string;
  readonly slugs: string;
  readonly levels: readonly string[];
  readonly minSharePercent: string;
  readonly minUsd: string;
  readonly alertLevel: string;
  readonly note: string;
}

export interface DraftForm {
  readonly name: string;
  readonly reason: string;
  readonly rows: readonly RuleRow[];
}

/** Refusals by form field: `name`, `reason`, `rules`, `rules.<row>.<field>`; `form` for the rest. */
export type FieldErrors = Readonly<Record<string, string>>;

/** The most rows a form may send: the API's rule limit, a blank row for a new rule and some slack. */
const MAX_ROWS = 110;
const RULE_FIELDS = new Set(['id', 'rule_type', 'categories', 'min_share_percent', 'min_usd', 'alert_level', 'note']);

export const formText = (fields: Record<string, unknown>, name: string): string => {
  const value = fields[name];
  return typeof value === 'string' ? value : Array.isArray(value) ? String(value[0] ?? '') : '';
};
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []);

function rowAt(fields: Record<string, unknown>, i: number): RuleRow {
  const at = (name: string) => formText(fields, `rules.${i}.${name}`);
  return {
    id: at('id').trim(),
    ruleType: at('rule_type'),
    slugs: at('slugs'),
    levels: list(fields[`rules.${i}.levels`]),
    minSharePercent: at('min_share_percent').trim(),
    minUsd: at('min_usd').trim(),
    alertLevel: at('alert_level'),
    note: at('note'),
  };
}

const isBlank = (row: RuleRow) =>
  row.id === '' && row.slugs.trim() === '' && row.levels.length === 0 && row.minSharePercent === '' && row.minUsd === '';

/** The form's fields as typed: rows marked `remove` and a blank new row are left out. */
export function readDraftForm(fields: Record<string, unknown>): DraftForm {
  const count = Math.min(MAX_ROWS, Math.max(0, Number.parseInt(formText(fields, 'row_count'), 10) || 0));
  const rows: RuleRow[] = [];
  for (let i = 0; i < count; i++) {
    const row = rowAt(fields, i);
    if (formText(fields, `rules.${i}.remove`) === '' && !isBlank(row)) rows.push(row);
  }
  return { name: formText(fields, 'name'), reason: formText(fields, 'reason'), rows };
}

/** A number as typed; anything else is left as the string, which the schema then refuses as not a number. */
const numberOf = (typed: string): number | string => (typed !== '' && Number.isFinite(Number(typed)) ? Number(typed) : typed);

function ruleBody(row: RuleRow) {
  const slugs = row.slugs
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return {
    id: row.id,
    rule_type: row.ruleType,
    categories: { ...(slugs.length > 0 ? { slugs } : {}), ...(row.levels.length > 0 ? { levels: row.levels } : {}) },
    min_share_percent: numberOf(row.minSharePercent),
    min_usd: numberOf(row.minUsd),
    alert_level: row.alertLevel,
    ...(row.note.trim() !== '' ? { note: row.note.trim() } : {}),
  };
}

/** The draft editor's own fields besides the rules'. */
const DRAFT_FIELDS: ReadonlySet<string> = new Set(['name', 'reason']);

/**
 * A refusal's path in the body (`['rules', 2, 'categories', 'slugs', 0]`) as the form field it concerns;
 * `form` for a field the form does not show, so that no refusal goes unseen.
 */
export function fieldOf(path: readonly (string | number)[], fields: ReadonlySet<string>): string {
  const [head, index, field] = path;
  if (head === 'rules' && typeof index === 'number' && typeof field === 'string' && RULE_FIELDS.has(field))
    return `rules.${index}.${field}`;
  if (head === 'rules') return 'rules';
  return typeof head === 'string' && fields.has(head) ? head : 'form';
}

export interface Refusal {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** Refusals by the form field they concern (several on one field are joined). */
export function errorsOf(refusals: readonly Refusal[], fields: ReadonlySet<string>): FieldErrors {
  const errors: Record<string, string> = {};
  for (const { path, message } of refusals) {
    const key = fieldOf(path, fields);
    errors[key] = errors[key] ? `${errors[key]}; ${message}` : message;
  }
  return errors;
}

/** A zod refusal's issues as refusals. */
export const zodRefusals = (issues: readonly z.core.$ZodIssue[]): Refusal[] =>
  issues.map((i) => ({ path: i.path as (string | number)[], message: formWording(i) }));

/** A form field holds text, so zod's "expected number, received string" is said as the analyst typed it. */
const formWording = (issue: z.core.$ZodIssue): string =>
  issue.code === 'invalid_type' && issue.expected === 'number' ? 'enter a number, such as 1000 or 2.5' : issue.message;

/** What the command refused (a 422's detail[], located under `body`) as refusals. */
export const detailRefusals = (detail: readonly ValidationDetail[]): Refusal[] =>
  detail.map((d) => ({ path: d.loc[0] === 'body' ? d.loc.slice(1) : d.loc, message: d.msg }));

/** The body the form stands for, or every refusal of it by field: the API's schema first, then the rules' checks. */
export function checkDraftForm(form: DraftForm): { body: EditPolicyBody } | { errors: FieldErrors } {
  const parsed = editPolicyBody.safeParse({ name: form.name.trim(), reason: form.reason, rules: form.rows.map(ruleBody) });
  if (!parsed.success) return { errors: errorsOf(zodRefusals(parsed.error.issues), DRAFT_FIELDS) };
  const issues = validateRules(parsed.data.rules?.map(ruleIn) ?? [], TAXONOMY);
  if (issues.length > 0)
    return {
      errors: errorsOf(
        issues.map((i) => ({ path: i.field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)), message: i.message })),
        DRAFT_FIELDS,
      ),
    };
  return { body: parsed.data };
}

/** What the edit command refused, by the editor's field. */
export const draftErrorsOf = (refusals: readonly Refusal[]): FieldErrors => errorsOf(refusals, DRAFT_FIELDS);

/** A stored rule (as the API shows it) as an editor row. */
export const rowOfRule = (rule: ReturnType<typeof ruleOut>): RuleRow => ({
  id: rule.id,
  ruleType: rule.rule_type,
  slugs: rule.categories.slugs.join(', '),
  levels: rule.categories.levels,
  minSharePercent: String(rule.min_share_percent),
  minUsd: String(rule.min_usd),
  alertLevel: rule.alert_level,
  note: rule.note,
});
