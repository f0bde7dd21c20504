import { describe, expect, it } from 'vitest';
import { HOME, safeNext } from './safe-next.js';

describe('safeNext (where a login redirects to)', () => {
  it('keeps paths of this site, with their query', () => {
    for (const next of ['/', '/account/usage', '/webhooks?page=2&x=%2F%2Fa', '/account/api#keys']) expect(safeNext(next)).toBe(next);
  });

  it('refuses anything that could leave the site or break the Location header', () => {
    const refused = [
      '//evil.example/x',
      'https://evil.example/',
      '/\\evil.example',
      '/\t/evil.example/',
      '/\n/evil.example/',
      '/account\r\nSet-Cookie: x=1',
      '/a b',
      '/a\u00a0b',
      '/caf\u00e9',
      '/a\\b',
      '/\x00',
      '/\x7f',
      '',
      'account/api',
      undefined,
      42,
      ['/account/usage'],
    ];
    for (const next of refused) expect(safeNext(next), JSON.stringify(next)).toBe(HOME);
  });

  it('no accepted path resolves off-site under WHATWG URL parsing', () => {
    const base = 'https://app.example/';
    for (let code = 0; code < 128; code++) {
      for (const next of [`/${String.fromCharCode(code)}/evil.example/`, `/${String.fromCharCode(code)}\\evil.example/`]) {
        expect(new URL(safeNext(next), base).host, JSON.stringify(next)).toBe('app.example');
      }
    }
  });
});
