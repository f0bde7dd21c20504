import { createServices } from '../../infra/bootstrap.js';
import { loadConfig } from '../../infra/config.js';

/**
 * bench:history:external's restart: one fresh process opens the data directory on the servers it is given,
 * starts everything (projections, relay, processors), waits until the read models are caught up, and prints
 * one JSON line: events its projection runner read, ms to caught up, RSS, and the log's length.
 */
const started = performance.now();
const services = await createServices(loadConfig({ ...process.env, LOG_LEVEL: 'silent', SVC_SYNC_ON_START: '0' }));
await services.start();
await services.whenCaughtUp();
const caughtUpMs = Math.round(performance.now() - started);
const rssMb = Math.round(process.memoryUsage().rss / 1e6);
const eventsRead = services.projections.eventsRead();
let logEvents = 0;
for await (const _event of services.store.readAll()) logEvents += 1;
await services.close();
process.stdout.write(`${JSON.stringify({ eventsRead, caughtUpMs, rssMb, logEvents })}\n`);
