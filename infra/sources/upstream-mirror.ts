import { fail, isServiceError } from '../../domain/shared/errors.js';
import type { Fetch } from './upstream-download.js';

/**
 * HTTP for `data sync`: GET with a timeout, one retry on a network error or a 5xx (upstreams hiccup;
 * a 4xx will not change), and the configured mirror.
 *
 * SVC_UPSTREAM_MIRROR redirects downloads: a URL `https://host/path` is fetched from
 * `<mirror>/host/path`. Either one mirror for every source (`http://127.0.0.1:8000`) or per source
 * (`ofac_sdn=https://mirror.example/a,*=https://mirror.example/b`; `*` for the others). Tests point it
 * at a local server; operators at an internal artifact mirror.
 */

export type Mirror = (url: string, source: string) => string;

export function parseMirror(setting: string | undefined): Mirror {
  const entries = (setting ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const bases = new Map<string, string>();
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    const [slug, base] = eq > 0 && !entry.slice(0, eq).includes('/') ? [entry.slice(0, eq), entry.slice(eq + 1)] : ['*', entry];
    if (!/^https?:\/\//.test(base)) throw fail('config_invalid', `SVC_UPSTREAM_MIRROR: '${base}' is not an http(s) URL`);
    bases.set(slug, base.replace(/\/+$/, ''));
  }
  return (url, source) => {
    const base = bases.get(source) ?? bases.get('*');
    return base === undefined ? url : `${base}/${url.replace(/^https?:\/\//, '')}`;
  };
}

export function httpFetch(options: { timeoutMs?: number; userAgent?: string } = {}): Fetch {
  const attempt = async (url: string): Promise<Uint8Array> => {
    const response = await fetch(url, {
      headers: { 'user-agent': options.userAgent ?? 'risk-screening-service data sync' },
      signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
    });
    if (!response.ok) {
      throw Object.assign(fail('data_import_failed', `GET ${url}: HTTP ${response.status}`), { retryable: response.status >= 500 });
    }
    return new Uint8Array(await response.arrayBuffer());
  };
  return async (url) => {
    for (let tries = 1; ; tries++) {
      try {
        return await attempt(url);
      } catch (error) {
        const retryable = (error as { retryable?: boolean }).retryable ?? true;
        if (retryable && tries < 2) continue;
        if (isServiceError(error)) throw error;
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        throw fail(
          'data_import_failed',
          `GET ${url}: ${cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))}`,
        );
      }
    }
  };
}
