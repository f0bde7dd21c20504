/** Just enough of RFC 6265 for the dashboard's two cookies (no dependency for it). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    if (!(name in cookies)) cookies[name] = part.slice(eq + 1).trim();
  }
  return cookies;
}

export interface CookieOptions {
  readonly path: string;
  /** Seconds; 0 deletes the cookie. */
  readonly maxAge: number;
  readonly sameSite: 'Strict' | 'Lax';
  readonly secure: boolean;
}

/** Always HttpOnly: no script of the page, and so no injected script, can read a dashboard cookie. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${options.path}`, `Max-Age=${options.maxAge}`, 'HttpOnly', `SameSite=${options.sameSite}`];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
