import { describe, expect, it } from 'vitest';
import type { Correlation } from '../domain/ports/correlation.port.js';
import type { LogFields, Logger } from '../domain/ports/logger.port.js';
import type { ConsumedMessage, ConsumeOptions, MessageBus } from '../domain/ports/message-bus.port.js';
import { createAsyncCorrelation } from '../infra/system/async-correlation.js';
import { asConsequenceOf, correlationOf, firstPerKey } from './event-scope.js';
import { storedEventOf, type BusEvent, type Processor } from './processor.js';
import { createProcessorRunner, toBusEvent } from './processor-runner.js';

/** The runner scopes a processor's work on an event to the event's correlation, and logs it. */

const message = (id: string, metadata: Record<string, unknown>, key = 'check-1'): ConsumedMessage => ({
  topic: 'events.check',
  partition: 0,
  offset: 0n,
  attempt: 1,
  key,
  value: { type: 'AddressCheckRequested', data: {}, metadata },
  headers: id ? { 'event-id': id, 'stream-revision': '0' } : {},
});

function recordingLogger(): Logger & { lines: { level: string; fields: LogFields; message: string }[] } {
  const lines: { level: string; fields: LogFields; message: string }[] = [];
  const at = (level: string) => (fields: LogFields, text: string) => void lines.push({ level, fields, message: text });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

describe('correlationOf', () => {
  it("is the event's correlationId caused by the event; falls back on the event id, or the message's causation", () => {
    expect(correlationOf({ id: 'e1', metadata: { correlationId: 'req-1' } })).toEqual({ correlationId: 'req-1', causationId: 'e1' });
    expect(correlationOf({ id: 'e1', metadata: {} })).toEqual({ correlationId: 'e1', causationId: 'e1' });
    expect(correlationOf({ id: '', metadata: { correlationId: 'req-1', causationId: 'e0' } })).toEqual({
      correlationId: 'req-1',
      causationId: 'e0',
    });
    expect(correlationOf({ id: '', metadata: {} })).toBeNull();
  });

  it('firstPerKey keeps the first event of each key, in order', () => {
    const events = [message('a', {}, 'x'), message('b', {}, 'y'), message('c', {}, 'x')].map(toBusEvent);
    expect([...firstPerKey(events, (e) => e.streamId)].map(([key, e]) => [key, e.id])).toEqual([
      ['x', 'a'],
      ['y', 'b'],
    ]);
  });
});

describe('processor runner tracing', () => {
  it('runs the work of each event in its correlation and logs one line per handled event', async () => {
    let handle!: ConsumeOptions['handle'];
    const bus = {
      consume: async (options: ConsumeOptions) => {
        handle = options.handle;
        return { whenCaughtUp: async () => undefined, stop: async () => undefined };
      },
    } as unknown as MessageBus;
    const correlation = createAsyncCorrelation();
    const seen: (Correlation | undefined)[] = [];
    const processor: Processor<unknown> = {
      name: 'test-processor',
      topics: ['events.check'],
      async handle(batch: readonly BusEvent[]) {
        await Promise.all(batch.map((event) => asConsequenceOf(event, async () => void seen.push(correlation.current()))));
      },
    };
    const log = recordingLogger();
    const runner = createProcessorRunner({ bus, processors: [processor], context: null, correlation, log, now: () => 0 });
    await runner.start();
    await handle([message('e1', { correlationId: 'req-1' }), message('e2', { correlationId: 'req-2' }, 'check-2')]);
    expect(seen).toEqual([
      { correlationId: 'req-1', causationId: 'e1' },
      { correlationId: 'req-2', causationId: 'e2' },
    ]);
    expect(log.lines.filter((l) => l.level === 'info')).toEqual([
      {
        level: 'info',
        message: 'processor handled event',
        fields: expect.objectContaining({
          processor: 'test-processor',
          eventId: 'e1',
          eventType: 'AddressCheckRequested',
          streamId: 'check-1',
          correlationId: 'req-1',
          attempt: 1,
        }),
      },
      { level: 'info', message: 'processor handled event', fields: expect.objectContaining({ eventId: 'e2', correlationId: 'req-2' }) },
    ]);
    expect(correlation.current()).toBeUndefined();
  });

  it('logs a failed event as a warning and rethrows, so the bus redelivers', async () => {
    let handle!: ConsumeOptions['handle'];
    const bus = {
      consume: async (o: ConsumeOptions) => ((handle = o.handle), { whenCaughtUp: async () => undefined, stop: async () => undefined }),
    } as unknown as MessageBus;
    const log = recordingLogger();
    const failing: Processor<unknown> = {
      name: 'failing',
      topics: ['events.check'],
      handle: (batch) => asConsequenceOf(batch[0]!, async () => Promise.reject(new Error('provider down'))),
    };
    await createProcessorRunner({ bus, processors: [failing], context: null, log }).start();
    await expect(handle([message('e1', { correlationId: 'req-1' })])).rejects.toThrow('provider down');
    expect(log.lines.find((l) => l.level === 'warn')).toMatchObject({
      message: 'processor failed on event',
      fields: { processor: 'failing', correlationId: 'req-1', error: 'provider down' },
    });
  });
});

describe('toBusEvent', () => {
  const raw = (value: unknown, headers: Record<string, string>): ConsumedMessage => ({
    topic: 'events.check',
    partition: 2,
    offset: 7n,
    attempt: 1,
    key: 'check-1',
    value,
    headers,
  });

  it('given a relayed event, then its id and revision come from the headers', () => {
    const event = toBusEvent(
      raw({ type: 'AddressCheckRequested', data: { a: 1 }, metadata: {} }, { 'event-id': 'e1', 'stream-revision': '3' }),
    );
    expect(event).toMatchObject({ id: 'e1', revision: 3n, type: 'AddressCheckRequested', streamId: 'check-1', data: { a: 1 } });
  });

  it('given a bus-only message (a webhook retry), then it has no id and no revision, not made-up ones', () => {
    const event = toBusEvent(
      raw({ type: 'WebhookAttemptDue', data: {}, metadata: { causationId: 'e0' } }, { 'event-type': 'WebhookAttemptDue' }),
    );
    expect(event).toMatchObject({ id: null, revision: null });
    expect(() => storedEventOf(event)).toThrow(/WebhookAttemptDue at events.check\[2\]@7 is not a relayed event/);
  });

  it('given a message that cannot come from this service, then it fails loudly (the bus retries, then dead-letters it)', () => {
    expect(() => toBusEvent(raw({ type: 'AddressCheckRequested', data: {} }, { 'event-id': 'e1' }))).toThrow(
      /only one of the event id and stream revision/,
    );
    expect(() => toBusEvent(raw({ type: 'AddressCheckRequested', data: {} }, { 'stream-revision': '1' }))).toThrow(
      /only one of the event id and stream revision/,
    );
    expect(() => toBusEvent(raw({ type: 'AddressCheckRequested', data: {} }, { 'event-id': 'e1', 'stream-revision': 'x' }))).toThrow(
      /stream revision "x"/,
    );
    expect(() => toBusEvent(raw({ data: {} }, {}))).toThrow(/events.check\[2\]@7 is not an event/);
    expect(() => toBusEvent(raw(null, {}))).toThrow(/is not an event/);
  });
});

describe('processor runner consume options', () => {
  it("asks the bus for the processor's own batch size, and for the bus's default when it has none", async () => {
    const asked: ConsumeOptions[] = [];
    const bus = {
      consume: async (options: ConsumeOptions) => {
        asked.push(options);
        return { whenCaughtUp: async () => undefined, stop: async () => undefined };
      },
    } as unknown as MessageBus;
    const handle = async () => undefined;
    const processors: Processor<unknown>[] = [
      { name: 'big-batches', topics: ['t'], maxBatchSize: 400, handle },
      { name: 'default-batches', topics: ['t'], handle },
    ];
    await createProcessorRunner({ bus, processors, context: {} }).start();
    expect(asked.map((o) => [o.group, o.maxBatchSize])).toEqual([
      ['big-batches', 400],
      ['default-batches', undefined],
    ]);
  });
});
