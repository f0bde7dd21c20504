import { present } from '../../../domain/shared/present.js';
import { embeddedTopology } from '../../topology/embedded.js';
import { openLogMessageBus } from './log-message-bus.js';

/**
 * Run by log-message-bus.crash.test.ts and killed with SIGKILL mid-flight: publishes forever while consuming,
 * and reports on stdout (synchronous for pipes on Linux) every publish that resolved and every message
 * handed over, so the test can check what survived.
 */
const dir = present(process.argv[2], 'the crash test passes the data directory');
const settings = { DATA_DIR: dir, SVC_FSYNC: '1' as const, SVC_GRAPH_SUPER_NODE_BOUND: 1000 };
const bus = openLogMessageBus({
  store: await embeddedTopology.eventStore(settings),
  checkpoints: await embeddedTopology.checkpoints(settings),
});
await bus.consume({
  group: 'g',
  topics: ['t'],
  maxBatchSize: 7,
  handle: async (batch) => {
    for (const m of batch) process.stdout.write(`handled ${String(m.value)}\n`);
  },
});
for (let i = 0; ; i += 1) {
  await bus.publish('t', [{ key: `k${i % 5}`, value: i, headers: {} }]);
  process.stdout.write(`published ${i}\n`);
}
