/**
 * Retries `check` every 10 ms until it stops throwing (or returning false), failing with its last error
 * after `timeoutMs`: a bounded wait for asynchronous outcomes instead of a fixed sleep.
 */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let failure: unknown;
    try {
      const result = await check();
      if (result !== false) return result;
      failure = new Error('condition still false');
    } catch (error) {
      failure = error;
    }
    if (Date.now() > deadline) throw failure;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
