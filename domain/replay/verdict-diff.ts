/**
 * The exact differences between a verdict as it was given and as it is recomputed: one row per leaf that
 * differs, by its JSON path (`verdict.risk_level`, `labels[2].source`), with the value it had and the
 * value it has now. An absent field and a null one differ (null says "not known", absent "not asked").
 */
export interface VerdictDifference {
  readonly path: string;
  readonly was: unknown;
  readonly now: unknown;
}

/** Beyond this many rows a replay reports the count, not every row: a list replaced whole is one story. */
export const MAX_DIFFERENCES = 200;

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

function collect(path: string, was: unknown, now: unknown, out: VerdictDifference[]): void {
  if (Array.isArray(was) && Array.isArray(now)) {
    const length = Math.max(was.length, now.length);
    for (let i = 0; i < length; i++) {
      if (i >= was.length) out.push({ path: `${path}[${i}]`, was: undefined, now: now[i] });
      else if (i >= now.length) out.push({ path: `${path}[${i}]`, was: was[i], now: undefined });
      else collect(`${path}[${i}]`, was[i], now[i], out);
    }
    return;
  }
  if (isRecord(was) && isRecord(now)) {
    const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])].sort();
    for (const key of keys) collect(join(path, key), was[key], now[key], out);
    return;
  }
  if (!Object.is(was, now)) out.push({ path, was, now });
}

/** Every differing leaf of two JSON values, in a stable order (object keys sorted, array items by index). */
export function verdictDifferences(was: unknown, now: unknown): VerdictDifference[] {
  const out: VerdictDifference[] = [];
  collect('', was, now, out);
  return out;
}
