import { present } from '../domain/shared/present.js';
import { buildApp } from '../read-api/app.js';
import { listen } from '../read-api/server.js';
import { buildX402App } from '../read-api/x402/x402-app.js';
import { createServices } from './bootstrap.js';
import { registerAdminRoute } from './cli/admin-route.js';
import { announceService, withdrawService } from './cli/service-file.js';
import { loadConfig } from './config.js';
import { DEMO_EMAIL, ensureDemoAccount } from './startup/demo-account.js';
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
  const app = await buildApp(services.app, { loggerInstance: logger, limits });
  const announced = { token: '' };
  registerAdminRoute(app, services, () => announced.token);
  // The x402 channel, when configured, listens on its own port (X402_PORT) and closes before the services.
  const x402App = services.x402.app
    ? await buildX402App(services.x402.app, { loggerInstance: logger.child({ app: 'x402' }), limits })
    : null;
  const x402Address = x402App ? await x402App.listen({ port: config.X402_PORT, host: config.HOST }) : null;
  const address = await listen(app, {
    port: config.PORT,
    host: config.HOST,
    log,
    onClose: async () => {
      await x402App?.close();
      await withdrawService(config.DATA_DIR);
      await services.close();
    },
  });
  const port = app.server.address();
  announced.token = (await announceService(config.DATA_DIR, typeof port === 'object' && port ? port.port : config.PORT)).token;
  lifecycle.info(
    { address, dataDir: config.DATA_DIR, role: config.ROLE, metrics: `${address}/metrics` },
    `listening on ${address} (data in ${config.DATA_DIR})`,
  );
  if (x402Address) {
    const { terms } = present(services.x402.app, 'services.x402.app').deps;
    lifecycle.info(
      { address: x402Address, network: terms.network.caip2, asset: terms.network.asset, payTo: terms.payTo },
      `x402 channel listening on ${x402Address} (${terms.network.caip2}, ${terms.network.asset}, paid to ${terms.payTo})`,
    );
  }
}

main().catch((error: unknown) => {
  // The configuration may be what failed: this line does not depend on LOG_LEVEL.
  createServiceLogger('info').lifecycle.fatal(
    { error: error instanceof Error ? error.message : String(error) },
    `failed to start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
