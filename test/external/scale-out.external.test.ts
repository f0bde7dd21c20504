import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chargeCall } from '../../commands/billing.commands.js';
import type { CommandDeps } from '../../commands/command-deps.js';
import type { MessageBus } from '../../domain/ports/message-bus.port.js';
import { ledgerStream } from '../../domain/ledger/ledger.events.js';
import { externalNames } from '../../infra/external/namespace.js';
import { openKafkaMessageBus } from '../../infra/kafka/kafka-message-bus.js';
import { createProcessorRunner } from '../../processors/processor-runner.js';
import type { Processor } from '../../processors/processor.js';
import { topicOfFamily } from '../../processors/topics.js';
import { eventually } from '../contracts/eventually.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { external, skippedSuite } from './external-env.js';

/**
 * Scale-out on the real broker: two processor instances in one consumer group share the partitions of a
 * topic fed by the relay; one is cut off mid-stream as a kill -9 would (its sockets die, it never answers
 * again, its handler in flight never finishes). After the session timeout the group rebalances and the
 * survivor redelivers everything the dead one had not committed. Every job is charged, none twice: the
 * processor is idempotent because the ledger refuses a second charge of the same charge id.
 *
 * Both instances live in this process (the embedded event store belongs to one process and EventStoreDB
 * cannot run here), each with its own Kafka connections and group membership, which is what Kafka sees of
 * two processes.
 */

const JOBS = 60;
const SESSION_TIMEOUT_MS = 6000;

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

if (external.kafkaBrokers.length === 0) {
  skippedSuite('scale-out on Kafka', 'KAFKA_BROKERS is not set (npm run test:external starts a broker)');
} else {
  let svc: TestService;
  let userId: string;
  beforeAll(async () => {
    svc = await startTestService({ BUS: 'kafka', KAFKA_BROKERS: external.kafkaBrokers.join(','), READ_STORE: 'memory' });
    ({ userId } = await svc.account({ depositUsd: 100 }));
  });
  afterAll(() => svc?.close());

  it('two processors in one group, one killed mid-stream: every job charged exactly once', { timeout: 90_000 }, async () => {
    const { kafkaPrefix } = await externalNames(svc.services.config);
    const family = `job${randomUUID().slice(0, 8)}`;
    const deliveries: { instance: string; job: string; attempt: number }[] = [];
    let charged = 0;
    let deadInFlight = 0;

    const instance = async (name: string, sockets: ReturnType<typeof killableSockets>, isDead: () => boolean) => {
      const bus: MessageBus = await openKafkaMessageBus({
        brokers: external.kafkaBrokers,
        prefix: kafkaPrefix,
        sessionTimeoutMs: SESSION_TIMEOUT_MS,
        socketFactory: sockets.factory,
      });
      const processor: Processor<CommandDeps> = {
        name: `charger-${family}`,
        topics: [topicOfFamily(family)],
        async handle(batch, deps) {
          for (const event of batch) {
            if (isDead()) {
              deadInFlight += 1;
              await new Promise(() => undefined); // a dead process never finishes its batch
            }
            deliveries.push({ instance: name, job: event.streamId, attempt: event.message.attempt });
            const result = await chargeCall(deps, {
              userId,
              chargeId: `charge-${event.streamId}`,
              product: 'screen',
              details: { endpoint: 'test', keyId: null, network: null, subject: event.streamId },
            });
            if (!result.duplicate) charged += 1;
          }
        },
      };
      const runner = createProcessorRunner({ bus, processors: [processor], context: svc.services.commands });
      await runner.start();
      return { bus, runner };
    };

    let dead = false;
    const doomedSockets = killableSockets();
    const doomed = await instance('A', doomedSockets, () => dead);
    const survivor = await instance('B', killableSockets(), () => false);

    const append = (n: number) =>
      svc.services.store.append(`${family}-${n}`, [{ id: randomUUID(), type: 'JobRequested', data: { n }, metadata: { correlationId: randomUUID(), occurredAt: new Date().toISOString(), schemaVersion: 1 } }], {
        expected: 'no_stream',
      });
    for (let n = 0; n < JOBS / 2; n += 1) await append(n);
    await eventually(() => expect(new Set(deliveries.filter((d) => d.instance === 'A').map((d) => d.job)).size).toBeGreaterThan(3), 30_000);

    dead = true;
    doomedSockets.kill();
    for (let n = JOBS / 2; n < JOBS; n += 1) await append(n);

    // The survivor takes over the dead member's partitions once the broker gives up on it.
    await eventually(() => expect(charged).toBe(JOBS), 60_000);
    await survivor.runner.whenCaughtUp();

    const charges: string[] = [];
    for await (const event of svc.services.store.read(ledgerStream(userId))) {
      if (event.type === 'Charged') charges.push((event.data as { chargeId: string }).chargeId);
    }
    expect(charges).toHaveLength(JOBS);
    expect(new Set(charges).size).toBe(JOBS);
    const jobs = new Set(deliveries.map((d) => d.job));
    expect(jobs.size).toBe(JOBS);
    const redelivered = deliveries.length - JOBS;
    console.info(`scale-out: ${deliveries.length} deliveries for ${JOBS} jobs (${redelivered} redelivered after the kill, ${deadInFlight} stuck in the dead member)`);

    await survivor.runner.stop();
    await survivor.bus.close();
    // The dead member's handler never returns; its close is not awaited past a bound.
    void doomed.bus.close();
  });
}
