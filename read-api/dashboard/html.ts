/**
 * Server-rendered HTML with escaping by default: every value interpolated into `html` is escaped unless
 * it is itself the result of `html` (or `raw`, for markup built here such as inline SVG).
 */
import { present } from '../../domain/shared/present.js';
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => present(ESCAPES[c], 'the pattern matches only the characters the table escapes'));

type Value = SafeHtml | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = present(strings[0], 'a template has one more string than values');
  values.forEach((value, i) => (out += render(value) + present(strings[i + 1], 'a template has one more string than values')));
  return new SafeHtml(out);
}

/** Markup this module's callers built themselves (never user input). */
export const raw = (markup: string): SafeHtml => new SafeHtml(markup);
