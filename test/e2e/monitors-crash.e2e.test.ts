import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../domain/ports/event-store.port.js';
import { openLmdbEventStore } from '../../infra/embedded/lmdb-event-store.js';
import { fixtureText } from '../helpers/source-fixtures.js';
import { freePort, spawnTsx, stop } from '../support/processes.js';
import { startReceiver } from '../support/webhook-receiver.js';

/**
 * kill -9 of the real service while it re-evaluates the monitors of a new sanctions list version, then a
 * restart: each monitor's change is appended exactly once, and its webhook arrives at least once, always
 * with the same delivery_id.
 */
const KEY = `svc_${'M'.repeat(44)}`;
/** On FerretDB (npm run test:external) every read-model write is a round trip of its own: fewer monitors. */
const MONITORS = process.env.READ_STORE === 'mongo' ? 200 : 1000;
/**
 * A start's bound: before it listens, a restart folds what the killed process's read models had not
 * committed, and on FerretDB that is a round trip per document (past 120 s once in CI).
 */
const START_TIMEOUT_MS = 300_000;
const address = (i: number) => `0x7e57${i.toString(16).padStart(36, '0')}`;
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A sources directory holding only the OFAC SDN list, listing the first `listed` made-up addresses. */
async function writeSources(dir: string, listed: number): Promise<void> {
  const features = Array.from(
    { length: listed },
    (_, i) =>
      `<Feature ID="${700000 + i}" FeatureTypeID="345"><FeatureVersion ID="${800000 + i}" ReliabilityID="1"><Comment /><VersionDetail DetailTypeID="1432">${address(i)}</VersionDetail></FeatureVersion><IdentityReference IdentityID="${700000 + i}" IdentityFeatureLinkTypeID="1" /></Feature>`,
  ).join('\n');
  const xml = fixtureText('ofac-sdn-official/sdn_advanced.digital-currency-subset.xml').replace(
    '<Feature ID="60002"',
    `${features}\n<Feature ID="60002"`,
  );
  await mkdir(join(dir, 'ofac-sdn-official'), { recursive: true });
  await writeFile(join(dir, 'ofac-sdn-official', 'sdn_advanced.digital-currency-subset.xml'), xml);
}

function startService(dataDir: string, sourcesDir: string, port: number) {
  return spawnTsx(
    'infra/main.ts',
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      // Warnings and errors only: what a start that never gets ready says goes into the failure's message.
      LOG_LEVEL: 'warn',
      SVC_DEMO_API_KEY: KEY,
      SVC_DEMO_DEPOSIT_USD: '1000',
      SVC_SOURCES_DIR: sourcesDir,
      SVC_FSYNC: '1',
      WEBHOOK_ALLOW_LOCAL: '1',
      WEBHOOK_RETRY_SCALE: '0.001',
    },
    /listening on/,
    START_TIMEOUT_MS,
  );
}

const call = (port: number, method: string, path: string, body?: unknown) =>
  fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

async function streams(dataDir: string): Promise<Map<string, RecordedEvent[]>> {
  const store = await openLmdbEventStore(join(dataDir, 'store'), { fsync: false });
  const byStream = new Map<string, RecordedEvent[]>();
  try {
    for await (const event of store.readAll()) byStream.set(event.streamId, [...(byStream.get(event.streamId) ?? []), event]);
  } finally {
    await store.close();
  }
  return byStream;
}

describe('monitor re-evaluation across a kill -9', () => {
  it('appends each change once and delivers each webhook at least once with one delivery_id', { timeout: 720_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-monitor-crash-'));
    const sourcesDir = await mkdtemp(join(tmpdir(), 'svc-monitor-sources-'));
    dirs.push(dataDir, sourcesDir);
    const receiver = await startReceiver();
    try {
      // Round 1: the list without the addresses; monitors and a subscription are created; a clean stop.
      await writeSources(sourcesDir, 0);
      let port = await freePort();
      let { child } = await startService(dataDir, sourcesDir, port);
      const subscribed = await call(port, 'POST', '/v1/webhooks', { url: receiver.url, event_types: ['service.address.risk_changed'] });
      expect(subscribed.status).toBe(201);
      for (let start = 0; start < MONITORS; start += 1000) {
        const monitors = Array.from({ length: Math.min(1000, MONITORS - start) }, (_, i) => ({
          address: address(start + i),
          network: 'ETH',
        }));
        const bulk = await call(port, 'POST', '/v2/monitors/bulk', { monitors });
        expect(bulk.status).toBe(200);
        expect(bulk.body.summary).toMatchObject({ created: monitors.length, failed: 0 });
      }
      await stop(child);

      // Round 2: a new list version lists them all; imported at start, killed while the monitors are re-evaluated.
      await writeSources(sourcesDir, MONITORS);
      port = await freePort();
      ({ child } = await startService(dataDir, sourcesDir, port));
      // killed once re-evaluation is under way: its first webhook is out (on Kafka, after the groups' join)
      await receiver.arrival((received) => received.length >= 1);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      const atKill = await streams(dataDir);
      const changedAtKill = [...atKill.values()].filter((events) => events.some((e) => e.type === 'MonitorVerdictChanged')).length;
      console.log(`monitors changed at the kill: ${changedAtKill} of ${MONITORS}; webhooks received: ${receiver.received.length}`);

      // Round 3: restart; every monitor's change arrives.
      port = await freePort();
      const restarting = Date.now();
      ({ child } = await startService(dataDir, sourcesDir, port));
      console.log(`the restart listened after ${Date.now() - restarting} ms`);
      const restartedAt = Date.now();
      // Waits on the webhooks themselves, bounded only by the test's timeout: on Kafka the restarted consumers
      // wait out the killed members' sessions and a rebalance per group (once over 2 minutes on a loaded machine).
      await receiver.arrival((received) => new Set(received.map((r) => r.json.payload.monitor_id)).size === MONITORS);
      console.log(`every monitor's webhook arrived ${Date.now() - restartedAt} ms after the restarted service listened`);
      await stop(child);

      const after = await streams(dataDir);
      const monitorStreams = [...after.entries()].filter(([stream]) => stream.startsWith('monitor-'));
      expect(monitorStreams).toHaveLength(MONITORS);
      for (const [, events] of monitorStreams) {
        expect(events.filter((e) => e.type === 'MonitorVerdictChanged')).toHaveLength(1);
        expect(events.filter((e) => e.type === 'WebhookEventRaised')).toHaveLength(1);
      }
      const deliveryIds = new Map<string, Set<string>>();
      for (const { json } of receiver.received) {
        expect(json.payload).toMatchObject({ previous: { risk_level: 'none' }, current: { risk_level: 'sanctioned' } });
        deliveryIds.set(
          String(json.payload.monitor_id),
          (deliveryIds.get(String(json.payload.monitor_id)) ?? new Set()).add(json.delivery_id),
        );
      }
      expect(deliveryIds.size).toBe(MONITORS);
      expect([...deliveryIds.values()].every((ids) => ids.size === 1)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
