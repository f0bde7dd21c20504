import type { VerdictSigner } from '../domain/ports/verdict-signer.port.js';
import type { CommandDeps } from '../commands/command-deps.js';
import type { IntelIndex } from '../domain/ports/intel-index.port.js';
import type { Position } from '../domain/ports/event-store.port.js';
import type { AccountRepository } from '../projections/accounts.projection.js';
import type { ApiKeyRepository } from '../projections/api-keys.projection.js';
import type { UsageRepository } from '../projections/usage-rows.js';
import type { InspectApi } from './inspect-api.js';
import type { PipelineApi } from './pipeline-api.js';
import type { TransferApi } from './transfer-api.js';
import type { WebhookDeps } from '../commands/webhook-deps.js';
import type { WebhookSubscriptionRepository } from '../projections/webhook-subscriptions.projection.js';
import type { WebhookDeliveryRepository } from '../projections/webhook-deliveries.projection.js';
import type { DashboardServices } from './dashboard/dashboard-services.js';
import type { CorrelationScope } from '../domain/ports/correlation.port.js';
import type { HttpMetrics } from './observability/http-metrics.js';
import type { MonitorRepository } from '../projections/monitors.projection.js';
import type { AlertCaseAppServices } from './routes/alerts-services.js';
import type { PolicyAppServices } from './routes/policies-services.js';
import type { ReplayDeps } from '../commands/replay/replay-plan.js';

/** Everything the HTTP layer uses: command deps and read-model repositories, chosen by infra/topology and assembled by infra/wiring. */
export interface AppServices {
  readonly commands: CommandDeps & { readonly intel: IntelIndex; readonly receipts: VerdictSigner };
  readonly apiKeys: ApiKeyRepository;
  readonly accounts: AccountRepository;
  readonly usage: UsageRepository;
  /** Resolves once the read models reflect `position` (read-your-writes after a revocation). */
  readonly whenProjected: (position: Position | null) => Promise<void>;
  /** Multi-provider inspect: the provider catalog, completion waiters and time limits. */
  readonly inspect: InspectApi;
  /** Full check and explore jobs: the graph-search budgets new jobs get. */
  readonly pipeline: PipelineApi;
  /** Transfer checks (KYT): the pipeline's ports and the POST's synchronous wait. */
  readonly transfers: TransferApi;
  /** Login, sessions and the dashboard's read models. */
  readonly dashboard: DashboardServices;
  readonly info: () => { mode: string; version: string; ready: boolean };
  /** Sanctions lists older than this many days make /v2/health `degraded` (default 14). */
  readonly sanctionsMaxAgeDays?: number;
  /** Webhook subscriptions and deliveries (the /v1/webhooks routes and the dashboard share them). */
  readonly webhooks: WebhookAppServices;
  /** Alert cases of transfer checks (/v2/alerts and the dashboard's workbench). */
  readonly alerts: AlertCaseAppServices;
  /** KYT policies per subgroup (/v2/policies). */
  readonly policies: PolicyAppServices;
  /** Where a request's id becomes the correlation of the commands it runs (absent: commands use their own ids). */
  readonly correlation?: CorrelationScope;
  /** HTTP metrics and GET /metrics (absent: no /metrics route). */
  readonly metrics?: HttpMetrics;
  /** Monitors (the /v2/monitors routes; absent: no such routes). */
  readonly monitors?: MonitorApi;
  /** Verdict replay (POST /v2/verdicts/{id}/replay): what it reads, and its bound in time. */
  readonly replay: { readonly deps: ReplayDeps; readonly timeoutMs: number };
}

export interface MonitorStats {
  readonly monitors: { readonly total: number; readonly active: number; readonly paused: number };
  readonly last_reevaluation: Readonly<Record<string, unknown>> | null;
  readonly lag_seconds: number | null;
}

export interface MonitorApi {
  readonly repository: MonitorRepository;
  stats(): Promise<MonitorStats>;
}

export interface WebhookAppServices {
  readonly commands: WebhookDeps;
  readonly subscriptions: WebhookSubscriptionRepository;
  readonly deliveries: WebhookDeliveryRepository;
}
