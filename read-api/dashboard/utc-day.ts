/** 00:00 UTC of the day after `day` (YYYY-MM-DD): an exclusive end that keeps the whole of `day`. */
export const dayAfter = (day: string): string => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();
