import { comparePositions, type EventStore, type Position } from '../../../domain/ports/event-store.port.js';
import type { BusMessage, ConsumedMessage, ConsumeOptions } from '../../../domain/ports/message-bus.port.js';
import type { CheckpointStore } from '../../../domain/ports/read-store.port.js';
import { fail } from '../../../domain/shared/errors.js';
import { messageOfEvent, streamPrefixesOfTopic, topicOfEvent } from './bus-events.js';

/** Messages read and not yet handled, at most: the subscription waits for the handler beyond this. */
const MAX_BUFFERED = 10_000;
/** The checkpoint is written at most this often while nobody waits for it (a restart redelivers the rest). */
const COMMIT_INTERVAL_MS = 500;
/** setTimeout's largest delay; a later `notBefore` is simply checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export type ReaderOptions = Required<Omit<ConsumeOptions, 'startFrom' | 'topics'>> & { readonly topic: string };

export interface ReaderDeps {
  readonly store: EventStore;
  readonly checkpoints: CheckpointStore;
  readonly deadLetter: (message: ConsumedMessage, error: unknown) => Promise<void>;
  readonly onError: (error: unknown) => void;
}

/** An event of the topic read and not handled yet, or (no message) a position the subscription passed over. */
interface Entry {
  readonly position: Position;
  readonly message?: BusMessage;
}

/** The checkpoint of a consumer group on one topic (Kafka's committed offset of a group's topic-partition). */
export const topicCheckpoint = (group: string, topic: string): string => `bus:${group}:${topic}`;

/**
 * Where a group starts on a topic: its checkpoint there, or the one `$all` checkpoint of the group that an
 * earlier version kept for all its topics (`bus:<group>`: at-least-once for each of them), or the start.
 */
export async function startOf(checkpoints: CheckpointStore, group: string, topic: string): Promise<Start> {
  const stored = await checkpoints.load(topicCheckpoint(group, topic));
  return { stored, from: stored ?? (await checkpoints.load(`bus:${group}`)) };
}

/** The group's checkpoint on the topic as stored (null: none yet), and where its reader starts. */
export interface Start {
  readonly stored: Position | null;
  readonly from: Position | null;
}

/**
 * One topic of a consumer group on the log bus, Kafka style with one partition: a subscription to `$all`
 * from the group's checkpoint on the topic, filtered by the store to the topic's streams, whose messages are
 * handed over in log order, in batches of at most `maxBatchSize`. A throwing handler gets the same batch
 * again after `retryDelayMs`, the attempt number incremented; after `maxAttempts` failures the batch's first
 * message goes to the dead-letter topic, so a poison message never blocks the topic. A head message whose
 * `notBefore` lies ahead holds back its topic until then (as a Kafka retry topic's consumer pauses on it);
 * the group's other topics are read by readers of their own. Handled in order, the checkpoint is simply the
 * last position handled or passed over: a restart hands over again only what was not handled (at-least-once;
 * consumers dedupe on the event-id header). A write is a compare-and-set from the last one, so a second
 * consumer of the group fails loudly instead of both moving it.
 */
export class TopicReader {
  private readonly queue: Entry[] = [];
  private readonly abort = new AbortController();
  private readonly name: string;
  /** How many head entries the failing batch holds (handed over again as it was), and its failures so far. */
  private failing = { entries: 0, failures: 0 };
  private wake: (() => void) | null = null;
  private wakeOnPush: (() => void) | null = null;
  private space: (() => void) | null = null;
  private readonly reader: Promise<void>;
  private readonly handler: Promise<void>;
  private readonly waiters: { target: Position; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private commitTimer: NodeJS.Timeout | undefined;
  private committing: Promise<void> = Promise.resolve();
  private stopped: Promise<void> | null = null;
  /** Handled (or passed over) so far, in log order, and stored as the checkpoint. */
  private handled: Position | null;
  private stored: Position | null;

  constructor(
    private readonly deps: ReaderDeps,
    private readonly options: ReaderOptions,
    { stored, from }: Start,
  ) {
    this.name = topicCheckpoint(options.group, options.topic);
    this.stored = stored;
    this.handled = from;
    this.reader = this.subscribe(from ?? 'start').catch((error: unknown) => deps.onError(error));
    this.handler = this.run();
  }

  /** Every message of the topic up to here is handled: the ones after it are the group's lag (delayed ones included). */
  get handledUpTo(): Position | null {
    return this.handled;
  }

  async whenCaughtUp(): Promise<void> {
    if (this.stopped !== null) throw fail('invalid_state', 'the consumer is stopped');
    const head = await this.deps.store.headPosition();
    if (head === null || (this.stored !== null && comparePositions(this.stored, head) >= 0)) return;
    await new Promise<void>((resolve, reject) => {
      this.waiters.push({ target: head, resolve, reject });
      void this.commit();
    });
  }

  /** Lets the batch in flight finish, writes the checkpoint, then ends. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.abort.abort();
      this.space?.();
      this.wake?.();
      await Promise.all([this.reader, this.handler]);
      clearTimeout(this.commitTimer);
      await this.commit();
      for (const waiter of this.waiters.splice(0)) waiter.reject(fail('invalid_state', 'the consumer stopped before catching up'));
    })();
    return this.stopped;
  }

  private async subscribe(from: Position | 'start'): Promise<void> {
    const filter = { streamPrefixes: streamPrefixesOfTopic(this.options.topic) };
    for await (const delivery of this.deps.store.subscribeToAll({ from, filter, signal: this.abort.signal })) {
      if (delivery.kind === 'caughtUp') continue;
      if (delivery.kind === 'checkpoint') this.push({ position: delivery.position });
      // The filter is by stream prefix: the event's topic decides (`bus-t` is a prefix of `bus-t.retry`).
      else if (topicOfEvent(delivery.event) !== this.options.topic) this.push({ position: delivery.event.position });
      else this.push({ position: delivery.event.position, message: messageOfEvent(delivery.event) });
      // Back-pressure: reading never runs further than MAX_BUFFERED ahead of the handler.
      if (this.queue.length >= MAX_BUFFERED) await new Promise<void>((resolve) => (this.space = resolve));
      if (this.abort.signal.aborted) return;
    }
  }

  private push(entry: Entry): void {
    const last = this.queue.at(-1);
    // Nothing waits to be handled before a position passed over: it is handled at once.
    if (entry.message === undefined && last === undefined) return this.markHandled(entry.position);
    // Positions passed over one after another (behind a delayed message, say) are one: the last of them.
    if (entry.message === undefined && last?.message === undefined) this.queue[this.queue.length - 1] = entry;
    else this.queue.push(entry);
    this.wakeOnPush?.();
  }

  private async run(): Promise<void> {
    while (!this.abort.signal.aborted) {
      try {
        await this.step();
      } catch (error) {
        // Dead-lettering failed: the batch stays at the head and is tried again after the delay.
        this.deps.onError(error);
        await this.sleep(this.options.retryDelayMs, false);
      }
    }
  }

  private async step(): Promise<void> {
    const taken = this.failing.entries > 0 ? this.failing.entries : this.dueEntries();
    const batch = this.queue.slice(0, taken).filter((entry) => entry.message);
    if (batch.length === 0) return taken > 0 ? this.complete(taken) : this.sleep(this.untilDue(), true);
    const attempt = this.failing.failures + 1;
    const consumed = batch.map((entry) => this.consumed(entry, attempt));
    try {
      await this.options.handle(consumed);
    } catch (error) {
      this.failing = { entries: taken, failures: attempt };
      if (attempt < this.options.maxAttempts) return this.sleep(this.options.retryDelayMs, false);
      await this.deps.deadLetter(consumed[0] as ConsumedMessage, error);
      return this.complete(this.queue.indexOf(batch[0] as Entry) + 1);
    }
    return this.complete(taken);
  }

  /** How many leading entries hold the messages due now, at most maxBatchSize of them. */
  private dueEntries(): number {
    const now = Date.now();
    let [taken, messages] = [0, 0];
    for (const { message } of this.queue) {
      if (message && (messages === this.options.maxBatchSize || (message.notBefore ?? 0) > now)) break;
      if (message) messages += 1;
      taken += 1;
    }
    return taken;
  }

  private complete(count: number): void {
    this.failing = { entries: 0, failures: 0 };
    const done = this.queue.splice(0, count);
    if (this.queue.length < MAX_BUFFERED) this.space?.();
    this.markHandled((done.at(-1) as Entry).position);
  }

  private markHandled(position: Position): void {
    this.handled = position;
    // Someone waits for it (whenCaughtUp): now, not on the timer.
    if (this.waiters.length > 0) return void this.commit();
    this.commitTimer ??= setTimeout(() => {
      this.commitTimer = undefined;
      void this.commit();
    }, COMMIT_INTERVAL_MS);
  }

  /** Writes the last position handled, unless it is stored already; one write at a time. */
  private commit(): Promise<void> {
    this.committing = this.committing
      .then(async () => {
        const next = this.handled;
        if (next !== null && (this.stored === null || comparePositions(next, this.stored) > 0)) {
          if ((await this.deps.checkpoints.store(this.name, next, this.stored)) === 'mismatch')
            throw new Error(`checkpoint ${this.name} was moved by another consumer of the group`);
          this.stored = next;
        }
        const { stored } = this;
        const reached = this.waiters.filter(({ target }) => stored !== null && comparePositions(stored, target) >= 0);
        for (const waiter of reached) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      })
      .catch((error: unknown) => {
        this.deps.onError(error);
        for (const waiter of this.waiters.splice(0)) waiter.reject(error);
      });
    return this.committing;
  }

  /** How long until the head message is due; undefined (until a push) when none is read. */
  private untilDue(): number | undefined {
    const head = this.queue.find((entry) => entry.message)?.message;
    if (head === undefined) return undefined;
    return Math.min(Math.max(0, (head.notBefore ?? 0) - Date.now()), MAX_TIMER_MS);
  }

  private consumed(entry: Entry, attempt: number): ConsumedMessage {
    return { ...(entry.message as BusMessage), topic: this.options.topic, partition: 0, offset: entry.position.commit, attempt };
  }

  /** Resolves after `ms` (never, if undefined), on stop, and on a push when `untilPush`. */
  private sleep(ms: number | undefined, untilPush: boolean): Promise<void> {
    if (this.abort.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => wake(), ms);
      const wake = (): void => {
        clearTimeout(timer);
        this.wake = this.wakeOnPush = null;
        resolve();
      };
      this.wake = wake;
      if (untilPush) this.wakeOnPush = wake;
    });
  }
}
