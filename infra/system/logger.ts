import { pino, type Logger as PinoLogger } from 'pino';
import type { Config } from '../config.js';

export type ServiceLogger = PinoLogger;

/**
 * The service's one logger: pino, JSON lines on stderr (stdout keeps the one-time announcements: the demo
 * key and password), ISO times, level names. LOG_LEVEL filters request, processor and debug lines; the
 * service's lifecycle lines (start, data imports, listening, runner errors, shutdown) come from a child kept
 * at `info` or below whatever LOG_LEVEL says, because supervisors and scripts wait for them.
 * Writes are asynchronous: under load the lines written while one write is in flight go out together in the
 * next (a synchronous write per line was 6 % of a screen's CPU), and whatever is pending is written
 * synchronously when the process exits (pino registers that flush), so a fatal line is not lost.
 */
export function createServiceLogger(
  level: Config['LOG_LEVEL'],
  destination: pino.DestinationStream = pino.destination({ fd: 2, sync: false }),
): { logger: ServiceLogger; lifecycle: ServiceLogger } {
  const logger = pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  const verbose = level === 'debug' || level === 'trace';
  const lifecycle = logger.child({ component: 'service' }, { level: verbose ? level : 'info' });
  return { logger, lifecycle };
}
