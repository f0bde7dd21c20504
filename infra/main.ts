import { present } from '../domain/shared/present.js';
import { buildApp } from '../read-api/app.js';
import { listen } from '../read-api/server.js';
import { buildX402App } from '../read-api/x402/x402-app.js';
import { createServices } from './bootstrap.js';
import { buildMetricsApp } from '../read-api/observability/metrics-app.js';
import { openCliChannel, type CliChannel } from './cli/cli-channel.js';
import { listOf, loadConfig } from './config.js';
import { DEMO_EMAIL, demoAccountWanted, ensureDemoAccount } from './startup/demo-account.js';
import { boundUrl, exposureLines, metricsPlacement } from './startup/exposure.js';
import { ensureDemoPassword } from './startup/demo-password.js';
import { importConfiguredSources } from './startup/import-sources.js';
import { probeChainEndpoints } from './kyt/probe-chain-endpoints.js';
import { createServiceLogger } from './system/logger.js';

/** `npm start`: API, relay, processors and projections in one process on the embedded default. */
async function main() {
  const config = loadConfig();
  // One logger: request lines (with their correlationId), processor lines and these lifecycle lines.
  const { logger, lifecycle } = createServiceLogger(config.LOG_LEVEL);
  const log = (line: string) => lifecycle.info(line);
  const services = await createServices(config, log, { logger });
  await services.start();
  await importConfiguredSources(services, log, (line) => lifecycle.warn(line));
  void probeChainEndpoints(config, log); // reports in the background; never holds the start
  const demo = await ensureDemoAccount(services);
  if (demo.created && demo.apiKey) process.stdout.write(`demo api key: ${demo.apiKey}\n`);
  const demoPassword = await ensureDemoPassword(services);
  if (demoPassword.generated) process.stdout.write(`demo password: ${demoPassword.generated} (dashboard login as ${DEMO_EMAIL})\n`);

  const limits = {
    requestTimeoutMs: config.SVC_HTTP_REQUEST_TIMEOUT_MS,
    headersTimeoutMs: config.SVC_HTTP_HEADERS_TIMEOUT_MS,
    keepAliveTimeoutMs: config.SVC_HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxConnectionsPerClient: config.SVC_HTTP_MAX_CONNECTIONS_PER_CLIENT,
  };
  const metrics = metricsPlacement(config);
  const app = await buildApp(services.app, {
    loggerInstance: logger,
    limits,
    serveMetrics: metrics.on === 'public',
    trustedProxies: listOf(config.SVC_TRUSTED_PROXIES),
  });
  // The x402 channel, when configured, listens on its own port (X402_PORT) and closes before the services.
  const x402App = services.x402.app
    ? await buildX402App(services.x402.app, { loggerInstance: logger.child({ app: 'x402' }), limits })
    : null;
  if (x402App) await x402App.listen({ port: config.X402_PORT, host: config.HOST });
  const x402Address = x402App && boundUrl(x402App.server.address());
  const metricsApp =
    metrics.on === 'own'
      ? await buildMetricsApp(present(services.app.metrics, 'the app collects metrics when they are served on their own port'))
      : null;
  if (metricsApp && metrics.on === 'own') await metricsApp.listen({ port: metrics.port, host: metrics.host });
  const metricsAddress = metricsApp && boundUrl(metricsApp.server.address());
  let cli: CliChannel | null = null;
  await listen(app, {
    port: config.PORT,
    host: config.HOST,
    log,
    onClose: async () => {
      await cli?.close();
      await x402App?.close();
      await metricsApp?.close();
      await services.close();
    },
  });
  // The operator CLI's own channel: a Unix socket in the data directory, never the public listener.
  cli = await openCliChannel(services, config.DATA_DIR);
  const address = boundUrl(app.server.address());
  const exposure = exposureLines({
    host: config.HOST,
    api: address,
    x402: x402Address,
    metrics: {
      url: `${metricsAddress ?? address}/metrics`,
      host: metrics.on === 'own' ? metrics.host : config.HOST,
      token: config.METRICS_TOKEN !== undefined,
    },
    cliSocket: cli.socket,
    demoAccount: demoAccountWanted(config),
  });
  lifecycle.info(
    {
      address,
      host: config.HOST,
      dataDir: config.DATA_DIR,
      role: config.ROLE,
      metrics: `${metricsAddress ?? address}/metrics`,
      cli: cli.socket,
    },
    `${exposure.api}, data in ${config.DATA_DIR}`,
  );
  if (x402Address && exposure.x402) {
    const { terms } = present(services.x402.app, 'x402Address is set only when the x402 app exists').deps;
    lifecycle.info(
      { address: x402Address, network: terms.network.caip2, asset: terms.network.asset, payTo: terms.payTo },
      `${exposure.x402}: ${terms.network.caip2}, ${terms.network.asset}, paid to ${terms.payTo}`,
    );
  }
  lifecycle.info(exposure.metrics);
  lifecycle.info(exposure.cli);
  for (const line of exposure.warn) lifecycle.warn(line);
}

main().catch((error: unknown) => {
  // The configuration may be what failed: this line does not depend on LOG_LEVEL.
  createServiceLogger('info').lifecycle.fatal(
    { error: error instanceof Error ? error.message : String(error) },
    `failed to start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
