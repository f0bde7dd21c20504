/** Where a login goes when `next` is missing or refused. */
export const HOME = '/account/api';

/**
 * A path of this site and nothing else: one leading `/`, then printable ASCII only. No second `/` or `\`
 * right after it (`//evil.example`, `/\evil.example` leave the site), no `\` at all (WHATWG URL parsing reads
 * it as `/`), and no control character or whitespace: a TAB or CR/LF is dropped by URL parsers
 * (`/\t/evil.example` becomes `//evil.example`) and CR/LF cannot go into a Location header at all.
 */
const SAME_SITE_PATH = /^\/(?![/\\])[\x21-\x5b\x5d-\x7e]*$/;

export function safeNext(next: unknown): string {
  return typeof next === 'string' && SAME_SITE_PATH.test(next) ? next : HOME;
}
