import { rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHECK_STREAM_PREFIX } from '../../domain/address-check/address-check.events.js';
import { ledgerStream } from '../../domain/ledger/ledger.events.js';
import type { EventData, EventStore } from '../../domain/ports/event-store.port.js';
import type { MessageBus } from '../../domain/ports/message-bus.port.js';
import { deliveryStream } from '../../domain/webhooks/webhook-delivery.events.js';
import { externalNames } from '../../infra/external/namespace.js';
import { openKafkaMessageBus } from '../../infra/kafka/kafka-message-bus.js';
import { eventually } from '../contracts/eventually.js';
import { PARTIES, writeFullCheckSources } from '../support/full-check-data.js';
import { pollUntil } from '../support/polling.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { external, skippedSuite } from './external-env.js';

/**
 * Scale-out on the real broker, with the service's real processors: this process is ROLE=projections
 * (API, relay, read models, no processor), and two processor instances (services.startProcessorsOn, the
 * set a ROLE=processors process runs: full-check pipeline, webhook fan-out and delivery, inspect, KYT)
 * share every consumer group on their own Kafka connections. Full checks of addresses, some high risk,
 * raise service.check.high_risk to a webhook receiver that fails some attempts so retries happen.
 *
 * Instance A is killed as a kill -9 would, at a chosen worst moment: right after it POSTed a webhook and
 * before it recorded the attempt. From then on its Kafka sockets are cut and nothing it asks of the event
 * store ever answers, so its handlers in flight never finish and their offsets are never committed. After
 * the session timeout the survivor redelivers them. Every check completes, is charged once on its first
 * 200, and every (delivery id, attempt) is recorded at most once; the receiver may see an attempt twice
 * (A's unrecorded POST, then B's), which is what at-least-once HTTP means.
 *
 * Both instances live in this process (the embedded event store belongs to one process and EventStoreDB
 * cannot run here), each with its own Kafka connections, group membership and command executor, which is
 * what Kafka and the event store see of two processes.
 */

const CHECKS = 40;
const SESSION_TIMEOUT_MS = 6000;
/** Sanctioned, stolen funds (high risk: a webhook each), then two that raise nothing. */
const ADDRESSES = [PARTIES.s, PARTIES.r, PARTIES.d, PARTIES.x];

/** kafkajs connections that can all be cut at once, after which every reconnect is refused. */
function killableSockets() {
  const sockets = new Set<Socket>();
  let killed = false;
  return {
    factory: ({ host, port, onConnect }: { host: string; port: number; onConnect: () => void }) => {
      const socket = killed ? connect({ host: '127.0.0.1', port: 1 }) : connect({ host, port }, onConnect);
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      return socket;
    },
    kill() {
      killed = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** The event store as one process sees it: once dead (at the append `dies` picks, which never lands), no call ever answers. */
function killableStore(store: EventStore, dies: (stream: string, events: readonly EventData[]) => boolean) {
  let dead = false;
  const never = () => new Promise<never>(() => undefined);
  const alive = async <T>(call: () => Promise<T>): Promise<T> => {
    if (dead) return never();
    const value = await call();
    return dead ? never() : value;
  };
  async function* iterate<T>(source: () => AsyncIterable<T>): AsyncIterable<T> {
    if (dead) await never();
    for await (const item of source()) {
      if (dead) await never();
      yield item;
    }
  }
  const killable: EventStore = {
    append: (stream, events, options) => {
      if (!dead && dies(stream, events)) dead = true;
      return alive(() => store.append(stream, events, options));
    },
    read: (stream, options) => iterate(() => store.read(stream, options)),
    streamRevision: (stream) => alive(() => store.streamRevision(stream)),
    readAll: (options) => iterate(() => store.readAll(options)),
    headPosition: () => alive(() => store.headPosition()),
    subscribeToAll: (options) => iterate(() => store.subscribeToAll(options)),
    close: async () => undefined,
  };
  return { store: killable, isDead: () => dead };
}

/** Counts each message handed to a handler by (group, topic, partition, offset): more than once is a redelivery. */
function countingBus(bus: MessageBus, handled: Map<string, number>, onHandle: (count: number) => void): MessageBus {
  return {
    ...bus, // the Kafka bus is a record of closures
    consume: (options) =>
      bus.consume({
        ...options,
        handle: (batch) => {
          onHandle(batch.length);
          for (const m of batch) {
            const key = `${options.group}|${m.topic}|${m.partition}|${m.offset}`;
            handled.set(key, (handled.get(key) ?? 0) + 1);
          }
          return options.handle(batch);
        },
      }),
  };
}

/** A wait that ends on its event alone; the test's timeout bounds it. */
const UNBOUNDED = Number.POSITIVE_INFINITY;

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not done in ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function eventsOf(store: EventStore, stream: string) {
  const events: { id: string; type: string; data: Record<string, unknown> }[] = [];
  for await (const event of store.read(stream))
    events.push({ id: event.id, type: event.type, data: event.data as Record<string, unknown> });
  return events;
}

if (external.kafkaBrokers.length === 0) {
  skippedSuite('scale-out on Kafka', 'KAFKA_BROKERS is not set (npm run test:external starts a broker)');
} else {
  let svc: TestService;
  let sources: string;
  let receiver: Receiver;
  /** Each delivery id fails its first `k % 3` attempts, k its order of first arrival: 0, 1 or 2 retries. */
  const failures = new Map<string, number>();
  /** Stops the instances even when the test fails (a dead member's bus close is not awaited). */
  const stops: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    sources = await writeFullCheckSources();
    receiver = await startReceiver((_nth, { json }) => {
      if (!failures.has(json.delivery_id)) failures.set(json.delivery_id, failures.size % 3);
      return json.attempt <= failures.get(json.delivery_id)! ? { status: 500, body: 'try again' } : 200;
    });
    const env = {
      BUS: 'kafka',
      KAFKA_BROKERS: external.kafkaBrokers.join(','),
      READ_STORE: 'embedded',
      SVC_SOURCES_DIR: sources,
      WEBHOOK_ALLOW_LOCAL: '1',
      // Retries after 10 ms, 600 ms, 3.6 s (production: 5 s, 5 min, 30 min), same code.
      WEBHOOK_RETRY_SCALE: '0.002',
    };
    // ROLE=projections needs EventStoreDB and MongoDB across processes; here the other roles share this one.
    svc = await startTestService(env, undefined, (config) => ({ ...config, ROLE: 'projections' }));
  });
  afterAll(async () => {
    for (const stop of stops.reverse()) await within(stop(), 30_000, 'stopping an instance').catch(() => undefined);
    await svc?.close();
    await receiver?.close();
    if (sources) await rm(sources, { recursive: true, force: true });
  });

  it(
    'two instances of the real processors in one group each, one killed between a webhook POST and its record: every check completed and charged once, every attempt recorded once',
    // The waits below end on their event (a webhook attempted, a check completed, an attempt recorded), not
    // on clocks of their own: after the kill the survivor takes A's partitions once A's session has expired and
    // the group has rebalanced, which on a loaded machine takes as long as it takes. Only this bounds them.
    { timeout: 600_000 },
    async () => {
      const { kafkaPrefix } = await externalNames(svc.services.config);
      const handled = new Map<string, number>();
      const handledBy = { A: 0, B: 0 };
      const instance = async (name: 'A' | 'B', sockets: ReturnType<typeof killableSockets>, store?: EventStore) => {
        const bus = await openKafkaMessageBus({
          brokers: external.kafkaBrokers,
          prefix: kafkaPrefix,
          partitions: svc.services.config.KAFKA_PARTITIONS,
          sessionTimeoutMs: SESSION_TIMEOUT_MS,
          socketFactory: sockets.factory,
        });
        const processors = await svc.services.startProcessorsOn({
          bus: countingBus(bus, handled, (n) => (handledBy[name] += n)),
          ...(store ? { store } : {}),
        });
        stops.push(async () => {
          if (name === 'A') return void bus.close().catch(() => undefined); // its handlers never return
          await processors.stop();
          await bus.close();
        });
        return processors;
      };
      const doomedSockets = killableSockets();
      const doomedStore = killableStore(svc.services.store, (_stream, events) => {
        const dies = events.some((e) => e.type === 'WebhookDeliveryAttempted');
        if (dies) doomedSockets.kill();
        return dies;
      });
      await instance('A', doomedSockets, doomedStore.store);
      const survivor = await instance('B', killableSockets());

      const user = await svc.account({ depositUsd: CHECKS + 10 });
      const auth = { authorization: `Bearer ${user.apiKey}` };
      const subscribed = await svc.app.inject({
        method: 'POST',
        url: '/v1/webhooks',
        headers: auth,
        payload: { url: receiver.url, event_types: ['service.check.high_risk'] },
      });
      expect(subscribed.statusCode).toBe(201);
      const subscriptionId = subscribed.json().id as string;

      const checkIds: string[] = [];
      const submit = async (from: number, to: number) => {
        for (let n = from; n < to; n += 1) {
          const response = await svc.app.inject({
            method: 'POST',
            url: '/v2/check-address',
            headers: auth,
            payload: { address: ADDRESSES[n % ADDRESSES.length], network: 'ETH' },
          });
          expect(response.statusCode).toBe(202);
          checkIds.push(response.json().check_id as string);
        }
      };
      await submit(0, CHECKS / 2);
      // A dies once it has POSTed a webhook (so it has handled checks and deliveries); then more work arrives.
      // (A holds half the partitions of the delivery topics; 10 deliveries all missing them has odds 2^-10.)
      await eventually(() => expect(doomedStore.isDead(), 'instance A never attempted a webhook').toBe(true), UNBOUNDED);
      const handledByDoomed = handledBy.A;
      await submit(CHECKS / 2, CHECKS);

      // Every check completes (the survivor takes the dead member's partitions after the session timeout),
      // and its first 200 charges it; a second read is a free replay.
      const results = new Map<string, { decision: string; risk_level: string }>();
      for (const checkId of checkIds) {
        const url = `/v2/check-address/${checkId}/result`;
        const body = await pollUntil<{ decision: string; verdict: { risk_level: string }; billing: Record<string, unknown> }>(
          async () => {
            const response = await svc.app.inject({ method: 'GET', url, headers: auth });
            if (response.statusCode === 202) return null;
            expect(response.statusCode).toBe(200);
            return response.json();
          },
          { firstMs: 20, capMs: 500, tries: UNBOUNDED },
        );
        expect(body).toMatchObject({ check_id: checkId, status: 'completed', billing: { charged_usd: 1, replay: false } });
        results.set(checkId, { decision: body.decision, risk_level: body.verdict.risk_level });
        expect((await svc.app.inject({ method: 'GET', url, headers: auth })).json().billing).toEqual({ ...body.billing, replay: true });
      }

      // Each check's pipeline recorded each tier, its verdict and its delivery once, however often it ran.
      const expectedDeliveries = new Set<string>();
      for (const checkId of checkIds) {
        const events = await eventsOf(svc.services.store, `${CHECK_STREAM_PREFIX}${checkId}`);
        const tiers = events.filter((e) => e.type === 'TierCompleted').map((e) => (e.data.outcome as { tier: number }).tier);
        expect(tiers.sort()).toEqual([0, 1, 2, 3, 4]);
        expect(events.filter((e) => e.type === 'CheckCompleted')).toHaveLength(1);
        expect(events.filter((e) => e.type === 'CheckResultDelivered')).toHaveLength(1);
        const raised = events.filter((e) => e.type === 'WebhookEventRaised');
        expect(raised.length).toBeLessThanOrEqual(1);
        for (const event of raised)
          expectedDeliveries.add(svc.services.commands.ids.eventId(`webhook-delivery:${event.id}:${subscriptionId}`, 0));
      }
      expect(expectedDeliveries.size).toBeGreaterThanOrEqual(CHECKS / 2);

      // Ledger: one charge per check id, none twice; the balance says the same.
      const charges = (await eventsOf(svc.services.store, ledgerStream(user.userId)))
        .filter((e) => e.type === 'Charged')
        .map((e) => e.data.chargeId as string);
      expect(charges.sort()).toEqual([...checkIds].sort());
      expect((await svc.app.inject({ method: 'GET', url: '/v2/balance', headers: auth })).json().balance_usd).toBe(10);

      // Webhooks: each delivery ends delivered after exactly the attempts its receiver asked for, and each
      // (delivery id, attempt) is recorded once. That is what the design guarantees: attemptDelivery reserves
      // nothing before its POST, but its record is decided against the stream at an expected revision and
      // the decider takes only the next attempt, so of two instances recording one attempt the second
      // conflicts, re-reads, and records nothing.
      const attemptsOf = async (deliveryId: string) => {
        const events = await eventsOf(svc.services.store, deliveryStream(deliveryId));
        expect(events.filter((e) => e.type === 'WebhookDeliveryScheduled')).toHaveLength(1);
        return events.filter((e) => e.type === 'WebhookDeliveryAttempted').map((e) => e.data as { attempt: number; status: string });
      };
      for (const deliveryId of expectedDeliveries) {
        const attempts = await eventually(async () => {
          const recorded = await attemptsOf(deliveryId);
          expect(recorded.at(-1)?.status).toBe('delivered');
          return recorded;
        }, UNBOUNDED);
        const retries = failures.get(deliveryId)!;
        expect(attempts.map((a) => a.attempt)).toEqual(Array.from({ length: retries + 1 }, (_, i) => i + 1));
        expect(attempts.map((a) => a.status)).toEqual([...Array<string>(retries).fill('failed'), 'delivered']);
      }
      // No delivery the fan-out should not have scheduled (a redelivered raised event names the same one).
      const deliveryStreams = new Set<string>();
      for await (const event of svc.services.store.readAll())
        if (event.streamId.startsWith('delivery-')) deliveryStreams.add(event.streamId);
      expect(deliveryStreams).toEqual(new Set([...expectedDeliveries].map(deliveryStream)));

      // The receiver: every attempt it saw is a recorded one; the same attempt may arrive twice (A POSTed it
      // and died before recording it; B made it again) and did at least once, by construction of the kill.
      const posts = new Map<string, number>();
      for (const { json } of receiver.received)
        posts.set(`${json.delivery_id}:${json.attempt}`, (posts.get(`${json.delivery_id}:${json.attempt}`) ?? 0) + 1);
      const recordedPairs = new Set(
        [...expectedDeliveries].flatMap((id) => Array.from({ length: failures.get(id)! + 1 }, (_, i) => `${id}:${i + 1}`)),
      );
      expect(new Set(posts.keys())).toEqual(recordedPairs);
      const repeatedPosts = [...posts.values()].reduce((sum, n) => sum + n - 1, 0);
      expect(repeatedPosts).toBeGreaterThanOrEqual(1);

      // The survivor commits everything, the dead member's uncommitted messages included.
      await survivor.whenCaughtUp();
      const redelivered = [...handled.values()].filter((n) => n > 1).length;
      expect(redelivered).toBeGreaterThanOrEqual(1); // at least the batch A died in
      const handledTotal = [...handled.values()].reduce((sum, n) => sum + n, 0);
      const retried = [...expectedDeliveries].reduce((sum, id) => sum + failures.get(id)!, 0);
      const risky = [...results.values()].filter(
        (r) => r.risk_level === 'high' || r.risk_level === 'severe' || r.risk_level === 'sanctioned',
      ).length;
      console.info(
        `scale-out: ${CHECKS} full checks (${risky} high risk) completed and charged once; ${expectedDeliveries.size} webhook deliveries, ${retried} retries, all delivered; ` +
          `bus: ${handledTotal} messages handed to handlers (A ${handledByDoomed} before it died), ${redelivered} redelivered after the kill; ` +
          `receiver: ${receiver.received.length} POSTs, ${repeatedPosts} repeating an attempt (not recorded twice)`,
      );
    },
  );
}
