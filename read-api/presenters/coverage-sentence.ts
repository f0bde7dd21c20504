import type { SanctionsCoverageBody } from '../../domain/webhooks/sanctions-coverage.words.js';

/**
 * The one sentence that says which sanctions lists a verdict was checked against, built from the
 * verdict's own `coverage.sanctions` (never fixed text): the dashboard's Sanctions section, the printable
 * report, the MCP summary line and the CLI all say it the same way.
 */

type Lists = SanctionsCoverageBody['lists'];

/** A verdict's coverage, or what a light screen's stored summary keeps of it (the jurisdictions, not the lists). */
export type SanctionsShown = Pick<SanctionsCoverageBody, 'checked' | 'not_checked'> & { readonly lists?: Lists };

const dated = (list: Lists[number]): string =>
  list.list_date === null
    ? `${list.name}, undated (imported ${list.imported_at.slice(0, 10)}${list.age_days === 0 ? '' : `, ${days(list.age_days)} ago`})`
    : `${list.name} of ${list.list_date}, ${list.age_days === 0 ? 'today' : `${days(list.age_days)} old`}`;

const days = (n: number): string => (n === 1 ? '1 day' : `${n} days`);

/** "US, UK and EU" */
export function jurisdictionsText(jurisdictions: readonly string[]): string {
  if (jurisdictions.length <= 1) return jurisdictions.join('');
  return `${jurisdictions.slice(0, -1).join(', ')} and ${jurisdictions[jurisdictions.length - 1] ?? ''}`;
}

/** "OFAC SDN List of 2025-11-19, 371 days old; …", grouped "US: …; UK: …" when more than one jurisdiction was checked. */
export function listsCheckedText(coverage: SanctionsShown): string {
  const lists = coverage.lists;
  if (!lists) return "the lists' versions are not kept with this summary";
  const of = (jurisdiction: string) => lists.filter((l) => l.jurisdiction === jurisdiction).map(dated);
  if (coverage.checked.length === 1) return of(coverage.checked[0] ?? '').join('; ');
  return coverage.checked.map((jurisdiction) => `${jurisdiction}: ${of(jurisdiction).join(', ')}`).join('; ');
}

/** The sentence itself; `undefined`: a verdict recorded before verdicts stated their lists. */
export function sanctionsSentence(coverage: SanctionsShown | undefined): string {
  if (!coverage) return 'Which sanctions lists this verdict was checked against was not recorded (it was made before verdicts stated it).';
  const checked =
    coverage.checked.length === 0
      ? 'Checked against no sanctions list.'
      : `Checked against the ${jurisdictionsText(coverage.checked)} sanctions lists: ${listsCheckedText(coverage)}.`;
  const notChecked =
    coverage.not_checked.length === 0
      ? ''
      : ` Not checked against the ${jurisdictionsText(coverage.not_checked)} sanctions lists: none is held, so this verdict says nothing about them.`;
  return `${checked}${notChecked}`;
}

/** For one line (MCP summary, CLI): "sanctions lists checked: US (…); not checked: UK, EU". */
export function sanctionsClause(coverage: SanctionsShown | undefined): string {
  if (!coverage) return 'sanctions lists checked: not recorded';
  const checked = coverage.checked.length === 0 ? 'none' : coverage.checked.join(', ');
  return `sanctions lists checked: ${checked}${coverage.not_checked.length ? `; NOT checked: ${coverage.not_checked.join(', ')}` : ''}`;
}
