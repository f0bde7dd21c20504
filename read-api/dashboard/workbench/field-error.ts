import { html, type SafeHtml } from '../html.js';
import type { FieldErrors } from './policy-form.js';

/** A form field's refusal shown next to it, and the attributes that tie the field to it for assistive technology. */

export function fieldError(errors: FieldErrors, key: string): SafeHtml {
  const message = errors[key];
  return message ? html`<p class="field-error" id="err-${key}" role="alert">${message}</p>` : html``;
}

export const invalid = (errors: FieldErrors, key: string): SafeHtml =>
  errors[key] ? html` aria-invalid="true" aria-describedby="err-${key}"` : html``;
