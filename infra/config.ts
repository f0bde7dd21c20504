import { z } from 'zod';
import { isWellFormedApiKey } from '../domain/apikeys/api-key.js';
import { SANCTIONS_JURISDICTIONS } from '../domain/intel/intel.types.js';
import { fail } from '../domain/shared/errors.js';
import { adapterSettings, resolveAdapters, type Resolved } from './external/adapter-config.js';
import { fullCheckSettings } from './full-check/full-check-config.js';
import { kytSettings } from './kyt/kyt-config.js';
import { inspectSettings, providerSettingsFromEnv, type ProviderSetting } from './providers/provider-settings.js';
import { x402Settings } from './x402/x402-config.js';

/** The service's whole configuration, parsed from the environment once at start. */
const schema = z.object({
  /** MODE, ROLE, per-port adapters and server URLs: see external/adapter-config.ts. */
  ...adapterSettings,
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Loopback unless the operator opens it: 0.0.0.0 (every interface) is a choice, never a default (infra/startup/exposure.ts). */
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  /** The verdict receipts' Ed25519 key ring (docs/operations.md, "Verdict receipt keys"): default DATA_DIR/receipt-keys.json, created at first start. */
  RECEIPT_KEYS_FILE: z.string().min(1).optional(),
  SVC_SOURCES_DIR: z.string().optional(),
  /** Multi-provider inspect: the wait before a 202, the wall-clock cap (504), each provider's time budget. */
  ...inspectSettings,
  /** JSON-RPC endpoints for `smart_contract.is_contract` (eth_getCode); unset: token lists only. */
  SVC_RPC_URL_ETH: z.url().optional(),
  SVC_RPC_URL_BSC: z.url().optional(),
  /** Without SVC_SOURCES_DIR, sync the data sources from upstream at start (in the background). */
  SVC_SYNC_ON_START: z.enum(['0', '1']).default('1'),
  /** Re-sync from upstream while running (hours; 0: only at start). */
  SVC_SYNC_INTERVAL_HOURS: z.coerce.number().min(0).default(24),
  /** Where `data sync` downloads from instead of upstream: see infra/sources/upstream-mirror.ts. */
  SVC_UPSTREAM_MIRROR: z.string().optional(),
  /** A sanctions list older than this (its own date, else its import) makes /v2/health `degraded`; it still screens. */
  SVC_SANCTIONS_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(3650).default(14),
  /**
   * Jurisdictions whose sanctions list must be held to screen at all (e.g. `US,UK,EU`): without one, the screen,
   * the full check and the x402 paid routes answer 502 backend_unavailable, as without any list. Default: none
   * beyond "at least one list"; a jurisdiction with no list is then said to be not checked in every verdict.
   */
  SVC_REQUIRED_SANCTIONS: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((j) => j.trim().toUpperCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(SANCTIONS_JURISDICTIONS))),
  /** The demo account (demo@localhost, funded, with a key): 1 for trying the service out, 0 in production. */
  SVC_DEMO_ACCOUNT: z.enum(['0', '1']).default('1'),
  SVC_DEMO_DEPOSIT_USD: z.coerce.number().nonnegative().default(10),
  /** Installed as the demo key; a malformed one stops the start (it would otherwise be silently replaced). */
  SVC_DEMO_API_KEY: z.string().refine(isWellFormedApiKey, 'not a well-formed key: svc_ followed by 44 letters or digits').optional(),
  /** Dashboard: the demo account's password; when unset, one is generated and printed once on first start. */
  SVC_DEMO_PASSWORD: z.string().min(8).max(256).optional(),
  /** Dashboard sessions, login throttling and password hashing (docs/dashboard.md). */
  SVC_SESSION_TTL_MINUTES: z.coerce.number().int().min(5).max(43_200).default(720),
  SVC_COOKIE_SECURE: z.enum(['auto', 'always', 'never']).default('auto'),
  SVC_LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  SVC_LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /** Login password checks (scrypt, 128 MiB each at N=2^17) running at once, and waiting beyond those. */
  SVC_LOGIN_MAX_CONCURRENT_CHECKS: z.coerce.number().int().min(1).max(64).default(2),
  SVC_LOGIN_MAX_QUEUED_CHECKS: z.coerce.number().int().min(0).max(10_000).default(32),
  SVC_PASSWORD_SCRYPT_LOG_N: z.coerce.number().int().min(10).max(20).default(17),
  /** The x402 pay-per-call channel (docs/x402.md); off while X402_PAY_TO is unset. */
  ...x402Settings,
  /** Full check, explore jobs, the transfer index and prices (docs/api.md, "Full check"). */
  ...fullCheckSettings,
  /** Transfer check (KYT): chain endpoints, the POST's wait, prices (docs/api.md, "Transfer check (KYT)"). */
  ...kytSettings,
  /** Webhooks (docs/api.md, "Webhooks"). A development setting: 1 lets deliveries reach http:// and https:// on loopback (127.0.0.1). */
  WEBHOOK_ALLOW_LOCAL: z.enum(['0', '1']).default('0'),
  /** How long a receiver has to answer a delivery (the spec: 2xx within 10 s). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(10_000),
  /** Multiplies the retry schedule (5 s, 5 min, 30 min, 2 h); tests shrink it, production keeps 1. */
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(10).default(1),
  /** Slow and greedy clients, on the V2 app (with the dashboard) and the x402 app: read-api/server-limits.ts. */
  SVC_HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  SVC_HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  SVC_HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(65_000),
  SVC_HTTP_MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(0).max(100_000).default(64),
  /** Proxies before the V2 app and dashboard whose X-Forwarded-For is believed (the login throttle's client address); as X402_TRUSTED_PROXIES. */
  SVC_TRUSTED_PROXIES: z.string().default(''),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** GET /metrics: when set, a scrape needs `Authorization: Bearer <token>` (docs/operations.md, "Metrics and logs"). */
  METRICS_TOKEN: z
    .string()
    .min(16)
    .max(256)
    .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
    .optional(),
  /**
   * /metrics on a listener of its own (METRICS_HOST:METRICS_PORT) instead of the public port. Without it,
   * /metrics is on the public port only while that port is loopback-only or METRICS_TOKEN guards it; else on
   * 127.0.0.1:9464 (infra/startup/exposure.ts).
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Set to 0 in tests of crash recovery only; fsync is what makes an acknowledged call durable. */
  SVC_FSYNC: z.enum(['0', '1']).default('1'),
});

/** INSPECT_PROVIDERS: the inspect's outside providers, from the SVC_PROVIDER_<letter>_* variables. */
export type Config = Resolved<z.infer<typeof schema>> & { readonly INSPECT_PROVIDERS: readonly ProviderSetting[] };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw fail('config_invalid', `invalid configuration: ${problems}`);
  }
  return { ...resolveAdapters(parsed.data), INSPECT_PROVIDERS: providerSettingsFromEnv(env) };
}

/** A comma-separated setting as its entries (e.g. SVC_TRUSTED_PROXIES). */
export const listOf = (value: string): string[] =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
