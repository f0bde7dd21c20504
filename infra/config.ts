import { z } from 'zod';
import { fail } from '../domain/shared/errors.js';

/** The service's whole configuration, parsed from the environment once at start. */
const schema = z.object({
  MODE: z.enum(['embedded']).default('embedded'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  SVC_SOURCES_DIR: z.string().optional(),
  /** Without SVC_SOURCES_DIR, sync the data sources from upstream at start (in the background). */
  SVC_SYNC_ON_START: z.enum(['0', '1']).default('1'),
  /** Where `data sync` downloads from instead of upstream: see infra/sources/upstream-mirror.ts. */
  SVC_UPSTREAM_MIRROR: z.string().optional(),
  SVC_DEMO_DEPOSIT_USD: z.coerce.number().nonnegative().default(10),
  SVC_DEMO_API_KEY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Set to 0 in tests of crash recovery only; fsync is what makes an acknowledged call durable. */
  SVC_FSYNC: z.enum(['0', '1']).default('1'),
});

export type Config = z.infer<typeof schema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw fail('config_invalid', `invalid configuration: ${problems}`);
  }
  return parsed.data;
}
