import type { FastifyInstance } from 'fastify';

/** Listens, and closes gracefully on SIGTERM/SIGINT: stop accepting, finish requests, then `onClose`. */
export async function listen(
  app: FastifyInstance,
  options: { port: number; host: string; onClose: () => Promise<void>; log: (line: string) => void },
): Promise<string> {
  const address = await app.listen({ port: options.port, host: options.host });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    options.log(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      await options.onClose();
      process.exit(0);
    } catch (error) {
      options.log(`shutdown failed: ${String(error)}`);
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  return address;
}
