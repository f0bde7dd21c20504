import { Gauge } from 'prom-client';
import { comparePositions, type EventStore } from '../../domain/ports/event-store.port.js';
import type { MessageBus } from '../../domain/ports/message-bus.port.js';
import type { LogProgress } from '../../processors/log-progress.js';
import type { ConsumerGroup } from './consumer-groups.js';
import type { ServiceMetrics } from './service-metrics.js';

/**
 * `svc_bus_consumer_lag_messages{group,topic}`: for each consumer group this process runs, the messages
 * published to its topics and not yet committed by the group (the whole group's, all members), asked of
 * the bus at each scrape. A failed query leaves the series out of that scrape.
 */
export function registerBusLag(metrics: ServiceMetrics, bus: Pick<MessageBus, 'lag'>, groups: () => readonly ConsumerGroup[]): void {
  const gauge = new Gauge({
    name: 'svc_bus_consumer_lag_messages',
    help: 'Messages on a topic not yet committed by a consumer group this process runs (delayed webhook retries count)',
    labelNames: ['group', 'topic'],
    registers: [metrics.registry],
  });
  metrics.onScrape('bus_lag', async () => {
    gauge.reset();
    const answers = await Promise.all(groups().map(async ({ group, topics }) => ({ group, lags: await bus.lag(group, topics) })));
    for (const { group, lags } of answers) for (const { topic, messages } of lags) gauge.set({ group, topic }, messages);
  });
}

export interface LogFollower {
  /** `projections` (the read models and in-process indexes) or `relay` (log → bus). */
  readonly name: string;
  progress(): LogProgress;
}

/**
 * How far each runner following `$all` in this process is behind the head of the event store:
 * `svc_projection_lag_commit_positions{runner}` (head commit position minus the last processed one; commit
 * positions are log offsets in bytes in both the embedded log and EventStoreDB) and
 * `svc_projection_lag_seconds{runner}` (0 when caught up, else the age of the last event it processed, or the
 * time since this process started when it has processed none yet).
 */
export function registerLogLag(
  metrics: ServiceMetrics,
  store: Pick<EventStore, 'headPosition'>,
  followers: () => readonly LogFollower[],
  now: () => Date,
): void {
  const startedAt = now();
  const positions = new Gauge({
    name: 'svc_projection_lag_commit_positions',
    help: 'Head commit position of the event store minus the last one a runner processed (log bytes); 0 when caught up',
    labelNames: ['runner'],
    registers: [metrics.registry],
  });
  const seconds = new Gauge({
    name: 'svc_projection_lag_seconds',
    help: 'How late a runner following the event store is: 0 when caught up, else the age of the last event it processed',
    labelNames: ['runner'],
    registers: [metrics.registry],
  });
  metrics.onScrape('projection_lag', async () => {
    positions.reset();
    seconds.reset();
    const head = await store.headPosition();
    const at = now().getTime();
    for (const follower of followers()) {
      const { position, recordedAt } = follower.progress();
      const caughtUp = head === null || (position !== null && comparePositions(position, head) >= 0);
      const runner = { runner: follower.name };
      positions.set(runner, caughtUp ? 0 : Number(head.commit - (position?.commit ?? 0n)));
      seconds.set(runner, caughtUp ? 0 : Math.max(0, (at - (recordedAt ?? startedAt).getTime()) / 1000));
    }
  });
}
