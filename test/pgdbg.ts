import { randomUUID } from 'node:crypto';
import { openPostgresEventStore } from '../infra/postgres/pg-event-store.js';
const store = await openPostgresEventStore({ url: 'postgres://postgres@127.0.0.1:36113/events', schema: 'dbg' });
const ev = () => ({ id: randomUUID(), type: 'T', data: {}, metadata: { correlationId: 'x', occurredAt: 'y', schemaVersion: 1 } });
let stopNoise = false;
const noise = async () => { while (!stopNoise) await store.append('noise-' + randomUUID(), [ev()], { expected: 'any' }); };
const noises = Array.from({ length: 4 }, noise);
let bad = 0;
for (let i = 0; i < 2000; i++) {
  const s = 'model-' + randomUUID();
  const a = await store.append(s, [ev()], { expected: 'any' });
  const b = await store.append(s, [ev()], { expected: 0n });
  const out = [];
  for await (const e of store.readAll({ after: a.position })) if (e.streamId === s) out.push(e.position);
  if (out.length !== 1) { bad++; console.log('BAD', i, a.position, b.position, out, await store.headPosition()); }
}
stopNoise = true; await Promise.all(noises);
console.log('bad', bad);
await store.close();
