/**
 * Polls like a client: calls `attempt` until it returns a value, waiting between tries with a backoff
 * (doubling from `firstMs` up to `capMs`), at most `tries` times. Bounded: a test never waits forever.
 */
export async function pollUntil<T>(
  attempt: () => Promise<T | null>,
  options: { firstMs?: number; capMs?: number; tries?: number } = {},
): Promise<T> {
  const { firstMs = 5, capMs = 200, tries = 200 } = options;
  let wait = firstMs;
  for (let i = 0; i < tries; i++) {
    const value = await attempt();
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(wait * 2, capMs);
  }
  throw new Error(`still not done after ${tries} polls`);
}
