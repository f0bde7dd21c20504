import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC proxy on 127.0.0.1 in front of a real node (anvil): forwards every call, and holds a call whose
 * body names one of `holds`' keys (a transaction hash) for that many milliseconds first, as a slow or
 * overloaded node would. `close` drops the calls still held.
 */
export async function startSlowRpcProxy(
  target: string,
  holds: ReadonlyMap<string, number>,
): Promise<{ url: string; held: () => number; close(): Promise<void> }> {
  let held = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const lower = body.toLowerCase();
      const holdMs = Math.max(0, ...[...holds].filter(([key]) => lower.includes(key.toLowerCase())).map(([, ms]) => ms));
      if (holdMs > 0) held += 1;
      setTimeout(() => {
        fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
          .then(async (answer) => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()))
          .catch(() => response.destroy());
      }, holdMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => held,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
