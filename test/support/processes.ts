import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Spawns `tsx <script>` and resolves once a line of its stdout matches `ready`. A variable set to undefined is unset. */
export function spawnTsx(
  script: string,
  env: Record<string, string | undefined>,
  ready: RegExp,
  timeoutMs = 120_000,
  nodeArgs: readonly string[] = [],
): Promise<{ child: ChildProcess; output: string[] }> {
  return new Promise((resolve, reject) => {
    // vitest sets MODE=test in its own environment; children get the service's default unless told otherwise.
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
      env: { ...process.env, MODE: 'embedded', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const timer = setTimeout(() => reject(new Error(`${script} not ready after ${timeoutMs} ms:\n${output.join('')}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (ready.test(output.join(''))) {
        clearTimeout(timer);
        resolve({ child, output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${output.join('')}`));
    });
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.removeAllListeners('exit');
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
