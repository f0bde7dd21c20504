import type { FastifyInstance } from 'fastify';
import { fail } from '../domain/shared/errors.js';
import { firstRepeatedKey } from './repeated-keys.js';

const UTF8 = new Set(['utf-8', 'utf8']);

/** The `charset` parameter of a Content-Type header, lowercased and unquoted; null when absent. */
export function charsetOf(contentType: string | undefined): string | null {
  for (const parameter of (contentType ?? '').split(';').slice(1)) {
    const [name, ...value] = parameter.split('=');
    if (name?.trim().toLowerCase() === 'charset')
      return value
        .join('=')
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase();
  }
  return null;
}

/**
 * Every JSON body of an app is read as UTF-8 (RFC 8259) and unambiguously: a `charset` other than UTF-8 is
 * 415 `unsupported_media_type`, and an object repeating a key at any depth is 422 `validation_error`
 * (JSON.parse would silently keep the last one). Both are refused while the body is parsed, so before
 * any charge or payment. Otherwise Fastify's own parser (with its prototype-poisoning guards) decides.
 */
export function parseJsonStrictly(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    const body = raw.toString();
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== null && !UTF8.has(charset)) {
      done(fail('unsupported_media_type', `charset "${charset.slice(0, 40)}" is not accepted: send the body as UTF-8 JSON`), undefined);
      return;
    }
    void parse(request, body, (error, parsed) => {
      if (error) return done(error, undefined);
      const repeated = firstRepeatedKey(body as string);
      if (repeated === null) return done(null, parsed);
      const key = String(repeated.at(-1));
      done(
        fail('validation_error', `the key "${key.slice(0, 60)}" appears more than once in one object`, {
          detail: [
            {
              loc: ['body', ...repeated],
              msg: `the key "${key.slice(0, 60)}" appears more than once; send it once`,
              type: 'json_duplicate_key',
            },
          ],
        }),
        undefined,
      );
    });
  });
}
