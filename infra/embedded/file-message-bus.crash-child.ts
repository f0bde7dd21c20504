import { present } from '../../domain/shared/present.js';
import { openFileMessageBus } from './file-message-bus.js';

/**
 * Run by file-message-bus.test.ts and killed with SIGKILL mid-flight: publishes forever while consuming,
 * and reports on stdout (synchronous for pipes on Linux) every publish that resolved and every message
 * handed over, so the test can check what survived.
 */
const dir = present(process.argv[2], 'the crash test passes the bus directory');
const bus = await openFileMessageBus(dir, { partitions: 2 });
await bus.consume({
  group: 'g',
  topics: ['t'],
  maxBatchSize: 7,
  handle: async (batch) => {
    for (const m of batch) process.stdout.write(`handled ${m.partition} ${m.offset} ${String(m.value)}\n`);
  },
});
for (let i = 0; ; i += 1) {
  await bus.publish('t', [{ key: `k${i % 5}`, value: i, headers: {} }]);
  process.stdout.write(`published ${i}\n`);
}
