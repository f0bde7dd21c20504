// A worker thread's entry when the service runs its TypeScript through tsx (npm start, tests): Node's
// module hooks are per thread, so the worker registers tsx itself, then imports the TypeScript entry it
// was given. An entry that is plain JavaScript is imported as it is.
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
