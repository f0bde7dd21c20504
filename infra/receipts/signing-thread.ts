import { sign as ed25519Sign, type KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/**
 * The worker's code: a few lines of plain JavaScript run with `eval`, so the thread starts without a
 * module loader (no tsx, no TypeScript to compile) and holds nothing but the keys it was sent. It signs
 * each batch's inputs in order with the batch's key and answers with their base64url signatures.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { sign } = require('node:crypto');
const keys = new Map();
parentPort.on('message', ({ id, kid, key, inputs }) => {
  if (key) keys.set(kid, key);
  try {
    parentPort.postMessage({ id, signatures: inputs.map((input) => sign(null, Buffer.from(input), keys.get(kid)).toString('base64url')) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});
`;

/** Signings waiting for the thread at most; past it, a signing is done on the caller's thread (same bytes). */
const MAX_PENDING = 4096;

interface Waiting {
  readonly input: string;
  readonly resolve: (signature: string) => void;
}

interface Batch {
  readonly kid: string;
  readonly key: KeyObject;
  readonly waiting: Waiting[];
}

/** base64url(Ed25519 signature of the input's UTF-8 bytes), on the calling thread. */
export const signInline = (key: KeyObject, input: string): string => ed25519Sign(null, Buffer.from(input), key).toString('base64url');

export interface SigningThread {
  /** base64url(Ed25519 signature of `input`'s UTF-8 bytes under `key`): the very bytes signInline gives. */
  sign(kid: string, key: KeyObject, input: string): Promise<string>;
  /** Ends the thread; signings still waiting, and any after, are done on the caller's thread. */
  close(): Promise<void>;
}

/**
 * Ed25519 signatures on a thread of their own, off the thread that answers requests (docs/benchmarks.md, light
 * screen: a signature is about 45 µs of CPU, the largest single cost of a screen on the answering thread).
 * The signings asked for in one turn of the event loop go to the thread as one message and come back as one,
 * so the messages cost a fraction of a signature. Ed25519 is deterministic: the thread's signature is the one
 * the caller's thread would compute. The thread is never a single point of failure: if it fails or exits,
 * what it held is signed on the caller's thread, and so is everything after; so is a signing that would make
 * more than MAX_PENDING wait. The thread keeps the process alive only while signings wait for it.
 */
export function startSigningThread(): SigningThread {
  let worker: Worker | null = new Worker(WORKER_SOURCE, { eval: true });
  worker.unref();
  const sentKids = new Set<string>();
  const inFlight = new Map<number, Batch>();
  let next: Batch | null = null;
  let nextId = 0;
  let pending = 0;

  const settle = (batch: Batch, signatures: readonly string[] | null) => {
    pending -= batch.waiting.length;
    batch.waiting.forEach((w, i) => w.resolve(signatures?.[i] ?? signInline(batch.key, w.input)));
    if (pending === 0) worker?.unref();
  };
  const fallBack = () => {
    worker = null;
    for (const batch of inFlight.values()) settle(batch, null);
    inFlight.clear();
  };
  worker.on('message', (message: { id: number; signatures?: string[]; error?: string }) => {
    const batch = inFlight.get(message.id);
    if (!batch) return;
    inFlight.delete(message.id);
    settle(batch, message.signatures ?? null);
  });
  worker.on('error', fallBack);
  worker.on('exit', fallBack);

  const flush = () => {
    const batch = next;
    next = null;
    if (!batch) return;
    if (!worker) return settle(batch, null);
    const id = nextId++;
    inFlight.set(id, batch);
    const firstUse = !sentKids.has(batch.kid);
    sentKids.add(batch.kid);
    const inputs = batch.waiting.map((w) => w.input);
    worker.postMessage(firstUse ? { id, kid: batch.kid, key: batch.key, inputs } : { id, kid: batch.kid, inputs });
  };

  return {
    sign(kid, key, input) {
      if (!worker || pending >= MAX_PENDING) return Promise.resolve(signInline(key, input));
      // A rotation within a turn: what was asked under the old key goes first, under it.
      if (next && next.kid !== kid) flush();
      if (!next) {
        next = { kid, key, waiting: [] };
        setImmediate(flush);
      }
      const batch = next;
      if (pending++ === 0) worker.ref();
      return new Promise((resolve) => batch.waiting.push({ input, resolve }));
    },
    async close() {
      const ending = worker;
      flush();
      if (!ending) return;
      await ending.terminate();
    },
  };
}
