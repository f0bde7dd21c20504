import { MongoClient } from 'mongodb';
import type { Position } from '../../domain/ports/event-store.port.js';
import { fail } from '../../domain/shared/errors.js';
import { requireReachable, splitHostPort } from '../external/tcp-probe.js';

/**
 * Connects with short server-selection timeouts (the driver's default waits 30 s for a server that is down)
 * and pings once, so a wrong URL or a stopped server stops the start at once.
 */
export async function connectMongo(url: string, timeoutMs = 2000): Promise<MongoClient> {
  const hosts = /^mongodb:\/\/(?:[^@/]*@)?([^/?]+)/.exec(url)?.[1];
  if (!url.startsWith('mongodb+srv://')) {
    if (!hosts) throw fail('config_invalid', `MONGO_URL is not a mongodb:// URL: ${JSON.stringify(url)}`);
    await requireReachable(
      'MongoDB',
      hosts.split(',').map((h) => splitHostPort(h, 27017)),
      timeoutMs,
    );
  }
  const client = new MongoClient(url, { serverSelectionTimeoutMS: timeoutMs, connectTimeoutMS: timeoutMs, retryWrites: true });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw fail(
      'backend_unavailable',
      `MongoDB at ${hosts ?? url} does not answer: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return client;
}

/** MongoDB database names: no `/\. "$*<>:|?`, at most 63 bytes (FerretDB is stricter than MongoDB here). */
export function checkDatabaseName(name: string): string {
  if (!/^[a-zA-Z0-9_-]{1,63}$/.test(name)) throw fail('config_invalid', `invalid MongoDB database name ${JSON.stringify(name)}`);
  return name;
}

/**
 * A position as one fixed-width string (20 digits of commit, 20 of prepare: bigint up to 2^64), so that
 * "is after" is a plain string comparison the server can do inside an update's filter.
 */
export function positionKey(position: Position): string {
  if (position.commit < 0n || position.prepare < 0n) throw fail('invalid_state', 'negative position');
  return position.commit.toString().padStart(20, '0') + position.prepare.toString().padStart(20, '0');
}

export function positionOfKey(key: string): Position {
  return { commit: BigInt(key.slice(0, 20)), prepare: BigInt(key.slice(20)) };
}

export function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}
