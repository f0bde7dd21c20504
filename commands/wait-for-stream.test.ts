import { describe, expect, it } from 'vitest';
import { createStreamChanges } from '../projections/stream-changes.js';
import { manualClock, settle } from '../test/support/manual-clock.js';
import { waitForStream } from './wait-for-stream.js';

/** A stream whose state the test sets; counts the reads. */
function fakeStream(initial: string) {
  let state = initial;
  let reads = 0;
  return {
    set: (next: string) => (state = next),
    read: () => {
      reads++;
      return Promise.resolve(state);
    },
    reads: () => reads,
  };
}

describe('waitForStream', () => {
  it('given a stream already done, when waited on, then it reads once and returns', async () => {
    const clock = manualClock();
    const stream = fakeStream('completed');
    const state = await waitForStream({ clock }, { streamId: 's', read: stream.read, done: (s) => s !== 'running', waitMs: 10_000 });
    expect(state).toBe('completed');
    expect(stream.reads()).toBe(1);
    expect(clock.pending()).toBe(0);
  });

  it("given no wakes, when the state changes, then a re-read on the clock's backoff returns it (no real sleep)", async () => {
    const clock = manualClock();
    const stream = fakeStream('running');
    let result: string | undefined;
    void waitForStream({ clock }, { streamId: 's', read: stream.read, done: (s) => s !== 'running', waitMs: 10_000 }).then(
      (s) => (result = s),
    );
    await clock.advance(50);
    expect(result).toBeUndefined();
    const readsSoFar = stream.reads();
    expect(readsSoFar).toBeGreaterThan(2);
    stream.set('completed');
    await clock.advance(100);
    expect(result).toBe('completed');
    expect(clock.pending()).toBe(0);
  });

  it('given a state that never finishes, when waitMs passes on the clock, then the last state is returned', async () => {
    const clock = manualClock();
    const stream = fakeStream('running');
    let result: string | undefined;
    void waitForStream({ clock }, { streamId: 's', read: stream.read, done: (s) => s !== 'running', waitMs: 2_000 }).then(
      (s) => (result = s),
    );
    await clock.advance(1_999);
    expect(result).toBeUndefined();
    await clock.advance(1);
    expect(result).toBe('running');
    expect(clock.pending()).toBe(0);
  });

  it('given stream wakes, when an event of the stream arrives, then the wait re-reads at once without the clock moving', async () => {
    const clock = manualClock();
    const changes = createStreamChanges(['CheckCompleted']);
    const stream = fakeStream('running');
    let result: string | undefined;
    void waitForStream({ clock, changes }, { streamId: 'check-1', read: stream.read, done: (s) => s !== 'running', waitMs: 10_000 }).then(
      (s) => (result = s),
    );
    await settle();
    expect(stream.reads()).toBe(1);
    changes.apply({ streamId: 'check-2' });
    await settle();
    expect(stream.reads()).toBe(1);
    stream.set('completed');
    changes.apply({ streamId: 'check-1' });
    await settle();
    expect(result).toBe('completed');
    expect(stream.reads()).toBe(2);
    expect(changes.waiting()).toBe(0);
    expect(clock.pending()).toBe(0);
  });

  it('given stream wakes that never come, when a second passes, then it re-reads all the same', async () => {
    const clock = manualClock();
    const changes = createStreamChanges([]);
    const stream = fakeStream('running');
    let result: string | undefined;
    void waitForStream({ clock, changes }, { streamId: 'check-1', read: stream.read, done: (s) => s !== 'running', waitMs: 10_000 }).then(
      (s) => (result = s),
    );
    await clock.advance(999);
    expect(stream.reads()).toBe(1);
    stream.set('failed');
    await clock.advance(1);
    expect(result).toBe('failed');
    expect(changes.waiting()).toBe(0);
  });
});
