import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAccount } from '../../commands/accounts.commands.js';
import { loadWebhookActor } from '../../commands/webhook-actor.js';
import { createSubscription } from '../../commands/webhook-subscriptions.commands.js';
import { webhookEventRaised } from '../../domain/webhooks/webhook-raised.js';
import { createServices } from '../../infra/bootstrap.js';
import { loadConfig } from '../../infra/config.js';
import { updateReadme } from '../support/readme-figures.js';
import { raise } from '../support/webhook-events.js';
import { startReceiver } from '../support/webhook-receiver.js';

/**
 * bench:webhooks — latency from a raised event to the first delivery attempt arriving at the receiver, on
 * the embedded default (fsync on): the emitter's append, relay, fan-out (a DeliveryScheduled append),
 * relay, delivery processor, signing and the HTTP POST to a receiver on 127.0.0.1. One event at a time
 * for the latency, then a burst for throughput. With --write-readme, writes the table into docs/benchmarks.md (bench:webhooks markers).
 */
const SEQUENTIAL = Number(process.env.BENCH_EVENTS ?? 300);
const WARM_UP = 30;
const BURST = Number(process.env.BENCH_BURST ?? 1000);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'bench-webhooks-'));
  const services = await createServices(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', WEBHOOK_ALLOW_LOCAL: '1' }));
  await services.start();
  const receiver = await startReceiver(() => 204);
  try {
    const commands = services.app.webhooks.commands;
    const { userId } = await openAccount(commands, { email: 'bench@example.test', organization: { name: 'Bench', subgroup: 'Ops' } });
    const actor = await loadWebhookActor(commands, userId, 'api_key');
    const created = await createSubscription(commands, actor, { url: receiver.url, eventTypes: ['service.bfs.failed'] });
    await services.projections.whenProcessed(created.position);
    const event = (i: number) =>
      webhookEventRaised({
        eventType: 'service.bfs.failed',
        audience: { user_id: userId },
        payload: { job_id: `job-${i}`, address: '0xabc', network: 'ETH', error: 'bench' },
      });

    const latencies: number[] = [];
    for (let i = 0; i < WARM_UP + SEQUENTIAL; i++) {
      const arrived = receiver.waitFor(receiver.received.length + 1, 30_000);
      const started = performance.now();
      await raise(services, event(i), 'explore');
      const [last] = (await arrived).slice(-1);
      if (i >= WARM_UP) latencies.push(last!.receivedAt - started);
    }
    latencies.sort((a, b) => a - b);

    const before = receiver.received.length;
    const burstStarted = performance.now();
    await Promise.all(Array.from({ length: BURST }, (_, i) => raise(services, event(100_000 + i), 'explore')));
    await receiver.waitFor(before + BURST, 120_000);
    const burstSeconds = (performance.now() - burstStarted) / 1000;

    const ms = (value: number) => value.toFixed(1);
    const load = loadavg()[0]!.toFixed(1);
    const table = [
      `Measured by \`npm run bench:webhooks\` (${new Date().toISOString().slice(0, 10)}, embedded default with fsync, one process, receiver on 127.0.0.1 answering 204, same 2-core machine, load average ${load} at the end):`,
      '',
      '| measure | value |',
      '|---|---|',
      `| event raised → first attempt received, p50 (${SEQUENTIAL} events one at a time, after ${WARM_UP} warm-up) | **${ms(percentile(latencies, 50))} ms** |`,
      `| same, p90 / p99 / max | ${ms(percentile(latencies, 90))} / ${ms(percentile(latencies, 99))} / ${ms(latencies.at(-1)!)} ms |`,
      `| burst of ${BURST} events raised at once, all delivered | ${burstSeconds.toFixed(2)} s (${Math.round(BURST / burstSeconds)} deliveries/s) |`,
    ].join('\n');
    process.stdout.write(`${table}\n`);
    await updateReadme('bench:webhooks', table);
  } finally {
    await receiver.close();
    await services.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
