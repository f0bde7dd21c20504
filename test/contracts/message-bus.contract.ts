import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusMessage, ConsumedMessage, ConsumeOptions, Consumer, MessageBus } from '../../domain/ports/message-bus.port.js';
import { HEADER, deadLetterTopic } from '../../domain/ports/message-bus.port.js';
import { eventually } from './eventually.js';

/**
 * One suite for every MessageBus adapter (embedded file bus, Kafka), written against the port only: every
 * test uses its own topics and groups, and every wait is bounded.
 */

const unique = (prefix: string): string => `${prefix}-${randomUUID()}`;
const msg = (key: string, value: unknown, extra: Partial<BusMessage> = {}): BusMessage => ({ key, value, headers: {}, ...extra });

export function messageBusContract(name: string, open: () => Promise<MessageBus>): void {
  describe(`MessageBus contract: ${name}`, () => {
    let bus: MessageBus;
    const consumers: Consumer[] = [];
    beforeAll(async () => {
      bus = await open();
    });
    afterAll(async () => {
      await Promise.all(consumers.map((c) => c.stop()));
      await bus.close();
    });

    /** Starts a consumer that records every message it is handed (before `handle` decides its fate). */
    async function consume(
      options: Partial<ConsumeOptions> & Pick<ConsumeOptions, 'topics'>,
      handle: (m: ConsumedMessage) => void | Promise<void> = () => undefined,
    ) {
      const seen: ConsumedMessage[] = [];
      const consumer = await bus.consume({
        group: unique('g'),
        ...options,
        handle: async (batch) => {
          for (const m of batch) {
            seen.push(m);
            await handle(m);
          }
        },
      });
      // Stopped at most once, by the test or by afterAll: the port does not promise that stop is idempotent.
      let stopping: Promise<void> | undefined;
      const stoppable: Consumer = { whenCaughtUp: () => consumer.whenCaughtUp(), stop: () => (stopping ??= consumer.stop()) };
      consumers.push(stoppable);
      return { consumer: stoppable, seen };
    }

    it('hands over every message with its key, value, headers and topic, in publish order per key', async () => {
      const topic = unique('t');
      const keys = ['a', 'b', 'c', 'd', 'e'];
      for (let round = 0; round < 4; round += 1) {
        await bus.publish(
          topic,
          keys.flatMap((key) => [0, 1, 2].map((i) => msg(key, { key, n: round * 3 + i }, { headers: { h: `${key}${round}` } }))),
        );
      }
      const { consumer, seen } = await consume({ topics: [topic] });
      await eventually(() => expect(seen).toHaveLength(60));
      for (const key of keys) {
        const ofKey = seen.filter((m) => m.key === key);
        expect(ofKey.map((m) => (m.value as { n: number }).n)).toEqual([...Array(12).keys()]);
        expect(new Set(ofKey.map((m) => m.partition)).size).toBe(1);
        expect(
          ofKey.every(
            (m) => m.topic === topic && m.attempt === 1 && m.headers.h === `${key}${Math.floor((m.value as { n: number }).n / 3)}`,
          ),
        ).toBe(true);
      }
      await consumer.stop();
    });

    it('delivers live messages published after the consumer started', async () => {
      const topic = unique('t');
      const { seen } = await consume({ topics: [topic] });
      await bus.publish(topic, [msg('k', 1)]);
      await bus.publish(topic, [msg('k', 2)]);
      await eventually(() => expect(seen.map((m) => m.value)).toEqual([1, 2]));
    });

    it('gives every group all the messages', async () => {
      const topic = unique('t');
      await bus.publish(topic, [msg('a', 1), msg('b', 2), msg('c', 3)]);
      const one = await consume({ topics: [topic] });
      const two = await consume({ topics: [topic] });
      await bus.publish(topic, [msg('a', 4)]);
      for (const { seen } of [one, two]) await eventually(() => expect(seen.map((m) => m.value).sort()).toEqual([1, 2, 3, 4]));
    });

    it('starts a new group at the end with startFrom latest', async () => {
      const topic = unique('t');
      await bus.publish(topic, [msg('k', 'old')]);
      const { consumer, seen } = await consume({ topics: [topic], startFrom: 'latest' });
      await bus.publish(topic, [msg('k', 'new')]);
      await eventually(() => expect(seen.map((m) => m.value)).toEqual(['new']));
      await consumer.whenCaughtUp();
      expect(seen.map((m) => m.value)).toEqual(['new']);
    });

    it('redelivers a batch after a throw, with the attempt number incremented', async () => {
      const topic = unique('t');
      await bus.publish(topic, [msg('k', 'flaky'), msg('k', 'next')]);
      const { seen } = await consume({ topics: [topic], retryDelayMs: 20, maxAttempts: 5 }, (m) => {
        if (m.value === 'flaky' && m.attempt < 3) throw new Error('transient');
      });
      await eventually(() => expect(seen.map((m) => m.value)).toContain('next'));
      const flaky = seen.filter((m) => m.value === 'flaky');
      expect(flaky.map((m) => m.attempt)).toEqual([1, 2, 3]);
      expect(new Set(flaky.map((m) => m.offset)).size).toBe(1);
    });

    it('moves a message that failed maxAttempts times to <topic>.dlt and goes on with the partition', async () => {
      const topic = unique('t');
      await bus.publish(topic, [msg('k', 'poison', { headers: { 'event-id': 'e1' } }), msg('k', 'fine')]);
      const { seen } = await consume({ topics: [topic], retryDelayMs: 10, maxAttempts: 3 }, (m) => {
        if (m.value === 'poison') throw new Error('cannot parse poison');
      });
      await eventually(() => expect(seen.map((m) => m.value)).toContain('fine'));
      const poison = seen.filter((m) => m.value === 'poison');
      expect(poison.map((m) => m.attempt)).toEqual([1, 2, 3]);
      const dead = await consume({ topics: [deadLetterTopic(topic)] });
      await eventually(() => expect(dead.seen).toHaveLength(1));
      const [letter] = dead.seen;
      expect(letter).toMatchObject({ topic: `${topic}.dlt`, key: 'k', value: 'poison' });
      expect(letter!.headers).toMatchObject({
        'event-id': 'e1',
        [HEADER.attempts]: '3',
        [HEADER.originalTopic]: topic,
        [HEADER.originalPartition]: String(poison[0]!.partition),
        [HEADER.originalOffset]: String(poison[0]!.offset),
      });
      expect(letter!.headers[HEADER.error]).toContain('cannot parse poison');
    });

    it('does not hand over a message before its notBefore', async () => {
      const topic = unique('t');
      const notBefore = Date.now() + 300;
      await bus.publish(topic, [msg('k', 'now'), msg('k', 'later', { notBefore })]);
      const handledAt = new Map<unknown, number>();
      const { seen } = await consume({ topics: [topic] }, (m) => void handledAt.set(m.value, Date.now()));
      await eventually(() => expect(seen.map((m) => m.value)).toEqual(['now', 'later']));
      expect(handledAt.get('later')).toBeGreaterThanOrEqual(notBefore);
      expect(seen[1]!.notBefore).toBe(notBefore);
    });

    it('whenCaughtUp resolves once everything published before the call is handled and committed', async () => {
      const topic = unique('t');
      const { consumer: idle } = await consume({ topics: [topic] });
      await idle.whenCaughtUp();
      await bus.publish(
        topic,
        Array.from({ length: 40 }, (_, i) => msg(`k${i % 7}`, i)),
      );
      const handled = new Set<unknown>();
      const { consumer } = await consume({ topics: [topic], maxBatchSize: 3 }, (m) => void handled.add(m.value));
      await consumer.whenCaughtUp();
      expect(handled.size).toBe(40);
      await idle.whenCaughtUp();
    });

    it('stop waits for the batch in flight', async () => {
      const topic = unique('t');
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const events: string[] = [];
      const { consumer, seen } = await consume({ topics: [topic] }, async () => {
        await gate;
        events.push('handled');
      });
      await bus.publish(topic, [msg('k', 1)]);
      await eventually(() => expect(seen).toHaveLength(1));
      const stopped = consumer.stop().then(() => events.push('stopped'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(events).toEqual([]);
      release();
      await stopped;
      expect(events).toEqual(['handled', 'stopped']);
    });

    it('lag: per topic, what a group has not committed (a group that never consumed counts from the start)', async () => {
      const [topic, other, never, group] = [unique('t'), unique('t'), unique('t'), unique('g')];
      await bus.publish(
        topic,
        Array.from({ length: 6 }, (_, i) => msg(`k${i % 3}`, i)),
      );
      await bus.publish(other, [msg('k', 'x')]);
      expect(await bus.lag(group, [topic, other, never])).toEqual([
        { topic, messages: 6 },
        { topic: other, messages: 1 },
        { topic: never, messages: 0 },
      ]);
      // Value 5 (the last of key k2) keeps failing: everything else gets committed, it stays behind.
      const stuck = await consume({ group, topics: [topic], maxBatchSize: 1, maxAttempts: 1000, retryDelayMs: 20 }, (m) => {
        if (m.value === 5) throw new Error('not now');
      });
      await eventually(async () => expect(await bus.lag(group, [topic])).toEqual([{ topic, messages: 1 }]));
      await stuck.consumer.stop();
      const fine = await consume({ group, topics: [topic] });
      await fine.consumer.whenCaughtUp();
      await eventually(async () =>
        expect(await bus.lag(group, [topic, other])).toEqual([
          { topic, messages: 0 },
          { topic: other, messages: 1 },
        ]),
      );
    });

    it('a new consumer of the group resumes after the committed offsets and gets the uncommitted ones again', async () => {
      const topic = unique('t');
      const group = unique('g');
      await bus.publish(
        topic,
        Array.from({ length: 10 }, (_, i) => msg('k', i)),
      );
      const first = await consume({ group, topics: [topic], maxBatchSize: 1, maxAttempts: 1000, retryDelayMs: 20 }, (m) => {
        if ((m.value as number) >= 5) throw new Error('not now');
      });
      await eventually(() => expect(first.seen.filter((m) => m.value === 5).length).toBeGreaterThanOrEqual(2));
      await first.consumer.stop();
      const second = await consume({ group, topics: [topic] });
      await eventually(() => expect(second.seen.map((m) => m.value)).toEqual([5, 6, 7, 8, 9]));
      await second.consumer.whenCaughtUp();
      await second.consumer.stop();
      const third = await consume({ group, topics: [topic] });
      await bus.publish(topic, [msg('k', 10)]);
      await eventually(() => expect(third.seen.map((m) => m.value)).toEqual([10]));
    });
  });
}
