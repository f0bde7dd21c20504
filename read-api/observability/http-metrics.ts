/**
 * What the HTTP layer needs from metrics (infra/metrics implements it on prom-client): one observation per
 * answered request, and the exposition text for GET /metrics.
 */
export interface HttpObservation {
  readonly method: string;
  /** The route's pattern (`/v2/check-address/:checkId/result`), never the raw URL: labels stay few. */
  readonly route: string;
  readonly statusCode: number;
  readonly seconds: number;
}

export interface HttpMetrics {
  observe(observation: HttpObservation): void;
  /** Every metric of this process in Prometheus' text format; a failing collector leaves only its own out. */
  render(): Promise<{ contentType: string; body: string }>;
  /** METRICS_TOKEN: when set, GET /metrics wants `Authorization: Bearer <token>`; null: open (keep it internal). */
  readonly token: string | null;
}
