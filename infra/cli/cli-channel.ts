import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Fastify from 'fastify';
import type { Services } from '../bootstrap.js';
import { registerAdminRoute } from './admin-route.js';
import { announceService, findRunningService, withdrawService } from './service-file.js';

/** The longest socket path every OS binds (a sockaddr_un holds 104 bytes on macOS, 108 on Linux, with its NUL). */
const MAX_SOCKET_PATH = 103;

export interface CliChannel {
  /** The socket's absolute path, or null when another live process of this data directory serves the CLI. */
  readonly socket: string | null;
  close(): Promise<void>;
}

/**
 * The operator CLI's own channel: HTTP on a Unix socket in the data directory (`cli.sock`, mode 0600), so the
 * CLI never shares the public listener, its per-address connection cap or its clients' queue, and only the
 * user running the service can connect. The socket and a token are announced in service.json (also 0600).
 * A data directory whose path is too long for a socket gets it in a private temporary directory instead.
 */
export async function openCliChannel(services: Services, dataDir: string): Promise<CliChannel> {
  // The embedded event log locks the data directory, so an announcement of another pid is stale (a killed
  // process, its pid perhaps reused); processes on an external store may share one, and the first keeps the channel.
  const exclusive = services.config.EVENT_STORE === 'embedded';
  const running = exclusive ? null : await findRunningService(dataDir);
  if (running && running.pid !== process.pid) return { socket: null, close: async () => undefined };
  const token = randomBytes(32).toString('hex');
  const app = Fastify({ logger: false });
  registerAdminRoute(app, services, token);
  const { socket, privateDir } = await socketPathFor(dataDir);
  await rm(socket, { force: true }); // left by a process that was killed: service.json names no live one
  await app.listen({ path: socket });
  // the token (0600 too) guards the moment before this; the file mode is the door from now on
  await chmod(socket, 0o600);
  await announceService(dataDir, { socket, token });
  return {
    socket,
    async close() {
      await withdrawService(dataDir);
      await app.close(); // removes the socket file
      if (privateDir) await rm(privateDir, { recursive: true, force: true });
    },
  };
}

async function socketPathFor(dataDir: string): Promise<{ socket: string; privateDir: string | null }> {
  const inData = resolve(dataDir, 'cli.sock');
  if (Buffer.byteLength(inData) <= MAX_SOCKET_PATH) return { socket: inData, privateDir: null };
  const privateDir = await mkdtemp(join(tmpdir(), 'svc-cli-')); // mode 0700
  return { socket: join(privateDir, 'cli.sock'), privateDir };
}
