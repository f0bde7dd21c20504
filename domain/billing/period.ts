/** Quota and monthly caps reset on the first day of each calendar month, UTC. */
export function periodStartOf(at: string | Date): string {
  const d = typeof at === 'string' ? new Date(at) : at;
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString();
}
