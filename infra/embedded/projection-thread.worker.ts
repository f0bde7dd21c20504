import { parentPort, workerData } from 'node:worker_threads';
import type { Position } from '../../domain/ports/event-store.port.js';
import { present } from '../../domain/shared/present.js';
import { createProjectionRunner } from '../../processors/projection-runner.js';
import { PROJECTIONS } from '../read-models.js';
import { openLmdbEventStoreReader } from './lmdb-event-store.js';
import { openLmdbReadStore } from './lmdb-read-store.js';
import type { FromProjectionThread, ProjectionThreadData, ToProjectionThread } from './projection-thread.messages.js';

/** Live commits of the read models at most this often: see the runner's `commitIntervalMs`. */
const COMMIT_INTERVAL_MS = 25;

/** The projection thread's side (see projection-thread.ts): the read models' runner on the log it is told about. */
const data = workerData as ProjectionThreadData;
const port = present(parentPort, 'the projection thread runs as a worker');
const post = (message: FromProjectionThread) => port.postMessage(message);

const store = openLmdbEventStoreReader(data.storeDir, data.at, { fsync: data.fsync });
const readStore = await openLmdbReadStore(data.readModelsDir);

/** What the read models' commits wrote since the last report. */
let written: Set<string> | 'all' = new Set();
readStore.onWritten((keys) => {
  if (keys === 'all') written = 'all';
  else if (written !== 'all') for (const key of keys) written.add(key);
});

/** One `processed` message per turn of the event loop: the latest position then, and what was written. */
let latest: { position: Position; recordedAt: Date | null } | null = null;
const report = () => {
  if (latest === null) return;
  const keys = written === 'all' ? 'all' : [...written];
  written = new Set();
  post({
    kind: 'processed',
    position: latest.position,
    recordedAt: latest.recordedAt?.getTime() ?? null,
    read: runner.eventsRead(),
    written: keys,
  });
  latest = null;
};

const runner = createProjectionRunner({
  store,
  readStore,
  projections: PROJECTIONS,
  name: data.name,
  sinkStreams: data.sinkStreams,
  commitIntervalMs: COMMIT_INTERVAL_MS,
  onProcessed(position, recordedAt) {
    if (latest === null) setImmediate(report);
    latest = { position, recordedAt };
  },
  onError(error, event, where) {
    const at = (event as { position?: Position } | undefined)?.position;
    const message = `${error instanceof Error ? error.message : String(error)}${at ? ` (event at ${at.commit}:${at.prepare})` : ''}`;
    post({ kind: 'error', message, where });
  },
});

port.on('message', (message: ToProjectionThread) => {
  switch (message.kind) {
    case 'follow':
      store.follow(message.at);
      break;
    case 'forget':
      readStore.forget(message.keys);
      break;
    case 'stop':
      void (async () => {
        await runner.stop();
        report();
        await readStore.close();
        await store.close();
        post({ kind: 'stopped', read: runner.eventsRead() });
        port.close();
      })();
      break;
  }
});

await runner.start();
post({ kind: 'started', position: runner.progress().position });
