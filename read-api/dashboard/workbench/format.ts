import { html, type SafeHtml } from '../html.js';
import { toneOf } from '../../../domain/shared/verdict-vocabulary.js';

/** Small pieces the workbench pages share: levels as badges, long hashes shortened but readable in full on hover and to screen readers. */

/** A level of the verdict vocabulary (domain/shared/verdict-vocabulary.ts), coloured by its step. */
export const levelBadge = (level: string | null): SafeHtml =>
  level === null
    ? html`<span class="badge off">unknown</span>`
    : html`<span class="badge ${toneOf(level) ?? 'off'}" data-level="${level}">${level}</span>`;

const STATUS_LABEL: Record<string, string> = { open: 'Open', in_review: 'In review', closed: 'Closed' };
export const statusLabel = (status: string): string => STATUS_LABEL[status] ?? status;
export const statusBadge = (status: string): SafeHtml =>
  html`<span class="badge ${status === 'closed' ? 'ok' : status === 'in_review' ? 'warn' : 'bad'}">${statusLabel(status)}</span>`;

/** `0x1234…cdef` on one line; the whole value in the title and for assistive technology. */
export function shortHash(value: string | null): SafeHtml {
  if (!value) return html`—`;
  if (value.length <= 16) return html`<code>${value}</code>`;
  return html`<code class="hash" title="${value}"><span aria-hidden="true">${value.slice(0, 8)}…${value.slice(-6)}</span><span class="sr-only">${value}</span></code>`;
}

/** ISO time as `YYYY-MM-DD HH:MM:SS UTC`. */
export const utc = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
