import { request } from 'undici';

/**
 * One JSON GET to an outside provider, reduced to what an inspect needs: the parsed body, or a short
 * error slug for the provider's `{ ok: false, error }` entry. Never throws.
 */
export type JsonAnswer = { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly error: string };

/** Provider answers are small (a few hundred bytes); anything this large is not one. */
const MAX_BODY_BYTES = 1024 * 1024;

export async function getJson(url: string, headers: Readonly<Record<string, string>>, signal: AbortSignal): Promise<JsonAnswer> {
  try {
    const response = await request(url, { method: 'GET', headers: { accept: 'application/json', ...headers }, signal });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        response.body.destroy();
        return { ok: false, error: 'invalid_response' };
      }
      chunks.push(chunk as Buffer);
    }
    // 502/503/504 and every other refusal: the provider did not answer, it is not charged.
    if (response.statusCode >= 300) return { ok: false, error: `http_${response.statusCode}` };
    try {
      return { ok: true, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
    } catch {
      return { ok: false, error: 'invalid_response' };
    }
  } catch {
    return { ok: false, error: signal.aborted ? 'timeout' : 'unreachable' };
  }
}
