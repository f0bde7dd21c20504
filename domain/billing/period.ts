/** Quota and monthly caps reset on the first day of each calendar month, UTC. */
export function periodStartOf(at: string | Date): string {
  // Event times are `toISOString()` text (`YYYY-MM-DDTHH:mm:ss.sssZ`): their month is their first 7
  // characters, without building two Dates per charge (a measurable share of a screen's CPU).
  if (typeof at === 'string' && ISO_UTC.test(at)) return `${at.slice(0, 7)}-01T00:00:00.000Z`;
  const d = typeof at === 'string' ? new Date(at) : at;
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString();
}

const ISO_UTC = /^\d{4}-(0[1-9]|1[0-2])-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
