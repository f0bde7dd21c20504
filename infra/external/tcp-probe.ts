import { present } from '../../domain/shared/present.js';
import { connect } from 'node:net';
import { fail } from '../../domain/shared/errors.js';

/**
 * A raw TCP connect with a short timeout. The drivers' own first connects are slow to fail (kafkajs ~9 s,
 * mongodb 30 s by default); a closed port answers this probe in a few milliseconds, so a server that is
 * down stops the start at once with a message naming it.
 */
export function probeTcp(host: string, port: number, timeoutMs = 1000): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const done = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => done(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.once('connect', () => done());
    socket.once('error', (error) => done(error));
  });
}

/** `host:port` → parts; IPv6 literals in brackets are accepted. */
export function splitHostPort(address: string, defaultPort: number): { host: string; port: number } {
  const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(address.trim());
  if (!match) throw fail('config_invalid', `invalid address ${JSON.stringify(address)}`);
  return {
    host: present(match[1], 'the pattern matched, and its host group is not optional'),
    port: match[2] === undefined ? defaultPort : Number(match[2]),
  };
}

/** Probes every address; rejects with `backend_unavailable` naming the server when none answers. */
export async function requireReachable(
  what: string,
  addresses: readonly { host: string; port: number }[],
  timeoutMs = 1000,
): Promise<void> {
  const failures: string[] = [];
  for (const { host, port } of addresses) {
    try {
      await probeTcp(host, port, timeoutMs);
      return;
    } catch (error) {
      failures.push(`${host}:${port} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  throw fail('backend_unavailable', `${what} is unreachable: ${failures.join(', ')}`);
}
