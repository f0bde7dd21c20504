import type { EventStore, RecordedEvent } from '../../../domain/ports/event-store.port.js';
import type { ConsumedMessage, ConsumeOptions, Consumer } from '../../../domain/ports/message-bus.port.js';
import type { CheckpointStore } from '../../../domain/ports/read-store.port.js';
import { fail } from '../../../domain/shared/errors.js';
import { BusLane, type LaneEntry } from './bus-lane.js';
import { messageOfEvent, streamPrefixesOfTopics, topicOfEvent } from './bus-events.js';
import { CheckpointCommitter } from './checkpoint-committer.js';
import { LowWatermark } from './low-watermark.js';

/** Messages read but not yet handled, at most, per group: the reader waits for the lanes beyond this. */
const MAX_BUFFERED = 10_000;

export type GroupOptions = Required<Omit<ConsumeOptions, 'startFrom'>> & {
  /** Lanes per topic: messages of one key stay in one, in order; the lanes run concurrently. */
  readonly partitions: number;
};

export interface GroupDeps {
  readonly store: EventStore;
  readonly checkpoints: CheckpointStore;
  readonly deadLetter: (message: ConsumedMessage, error: unknown) => Promise<void>;
  readonly onError: (error: unknown) => void;
  readonly onStopped: () => void;
}

/** The checkpoint of a consumer group in the CheckpointStore. */
export const groupCheckpoint = (group: string): string => `bus:${group}`;

/** FNV-1a of the key: the partition of a key is the same in every run. */
function partitionOf(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % partitions;
}

/**
 * One consumer of a group on the log bus: a subscription to `$all` from the group's checkpoint, filtered by
 * the store to the streams of the group's topics (its checkpoint deliveries move the group past the
 * others' appends unread), whose events go to one lane per topic-partition (bus-lane.ts); the checkpoint follows the low
 * watermark of what the lanes have handled (low-watermark.ts), so a restart hands over again only what was
 * not handled (at-least-once; consumers dedupe on the event-id header).
 */
export class GroupConsumer implements Consumer {
  private readonly lanes = new Map<string, BusLane>();
  private readonly openByTopic = new Map<string, number>();
  private readonly abort = new AbortController();
  private buffered = 0;
  private space: (() => void) | null = null;
  private reader: Promise<void> = Promise.resolve();
  private stopped: Promise<void> | null = null;

  private constructor(
    private readonly deps: GroupDeps,
    private readonly options: GroupOptions,
    private readonly watermark: LowWatermark,
    private readonly committer: CheckpointCommitter,
  ) {}

  static async start(deps: GroupDeps, options: GroupOptions, startFrom: 'earliest' | 'latest'): Promise<GroupConsumer> {
    const name = groupCheckpoint(options.group);
    let from = await deps.checkpoints.load(name);
    if (from === null && startFrom === 'latest') {
      // Stored at once, so that messages published after this call are this group's even if it dies before a commit.
      from = await deps.store.headPosition();
      if (from !== null && (await deps.checkpoints.store(name, from, null)) === 'mismatch')
        throw fail('invalid_state', `group ${options.group} got a checkpoint while starting`);
    }
    const committer = new CheckpointCommitter(deps.checkpoints, name, from, deps.onError);
    const consumer = new GroupConsumer(deps, options, new LowWatermark(from), committer);
    consumer.reader = consumer.read(from ?? 'start').catch((error: unknown) => deps.onError(error));
    return consumer;
  }

  get topics(): readonly string[] {
    return this.options.topics;
  }

  /** The last position the subscription has read. */
  get readUpTo() {
    return this.watermark.readUpTo;
  }

  /** Messages of `topic` read and not yet handled (delayed ones included). */
  openOf(topic: string): number {
    return this.openByTopic.get(topic) ?? 0;
  }

  async whenCaughtUp(): Promise<void> {
    if (this.stopped !== null) throw fail('invalid_state', 'the consumer is stopped');
    const head = await this.deps.store.headPosition();
    if (head !== null) await this.committer.whenCommitted(head);
  }

  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.abort.abort();
      this.space?.();
      await this.reader;
      await Promise.all([...this.lanes.values()].map((lane) => lane.stop()));
      await this.committer.flush();
      this.committer.close(fail('invalid_state', 'the consumer stopped before catching up'));
      this.deps.onStopped();
    })();
    return this.stopped;
  }

  private async read(from: Parameters<EventStore['subscribeToAll']>[0]['from']): Promise<void> {
    const topics = new Set(this.options.topics);
    const filter = { streamPrefixes: streamPrefixesOfTopics(this.options.topics) };
    for await (const delivery of this.deps.store.subscribeToAll({ from, filter, signal: this.abort.signal })) {
      if (delivery.kind === 'caughtUp') continue;
      if (delivery.kind === 'checkpoint') {
        this.watermark.passOver(delivery.position);
        this.committer.move(this.watermark.position);
        continue;
      }
      // The filter is by stream prefix: the event's topic decides (`bus-t` is a prefix of `bus-t.retry`).
      const topic = topicOfEvent(delivery.event);
      this.hand(delivery.event, topic, topics.has(topic));
      // Back-pressure: reading never runs further than MAX_BUFFERED ahead of the lanes.
      if (this.buffered >= MAX_BUFFERED) await new Promise<void>((resolve) => (this.space = resolve));
      if (this.abort.signal.aborted) return;
    }
  }

  private hand(event: RecordedEvent, topic: string, ours: boolean): void {
    const mark = this.watermark.read(event.position, !ours);
    if (!ours) return this.committer.move(this.watermark.position);
    const message = messageOfEvent(event);
    this.buffered += 1;
    this.openByTopic.set(topic, this.openOf(topic) + 1);
    this.laneOf(topic, partitionOf(message.key, this.options.partitions)).push({ mark, offset: event.position.commit, message });
  }

  private laneOf(topic: string, partition: number): BusLane {
    const key = `${topic}#${partition}`;
    let lane = this.lanes.get(key);
    if (lane === undefined) {
      lane = new BusLane({ ...this.options, topic, partition, deadLetter: this.deps.deadLetter, done: (e) => this.done(topic, e) });
      this.lanes.set(key, lane);
    }
    return lane;
  }

  private done(topic: string, entries: readonly LaneEntry[]): void {
    for (const entry of entries) this.watermark.close(entry.mark);
    this.buffered -= entries.length;
    this.openByTopic.set(topic, this.openOf(topic) - entries.length);
    if (this.buffered < MAX_BUFFERED) {
      this.space?.();
      this.space = null;
    }
    this.committer.move(this.watermark.position);
  }
}
