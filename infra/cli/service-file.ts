import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A running service announces itself in DATA_DIR/service.json (pid, port, admin token; mode 0600) so
 * that the CLI sends its verbs through the service instead of opening the locked data directory.
 */
export interface ServiceFile {
  readonly pid: number;
  readonly port: number;
  readonly token: string;
}

const path = (dataDir: string) => join(dataDir, 'service.json');

/**
 * DATA_DIR as config.ts reads it (same default; a test keeps them equal), without loading the whole
 * configuration: finding the running service must not cost the configuration's imports.
 */
export const dataDirOf = (env: NodeJS.ProcessEnv): string => env.DATA_DIR ?? './data';

export async function announceService(dataDir: string, port: number): Promise<ServiceFile> {
  const file = { pid: process.pid, port, token: randomBytes(32).toString('hex') };
  await writeFile(path(dataDir), JSON.stringify(file), { mode: 0o600 });
  return file;
}

export async function withdrawService(dataDir: string): Promise<void> {
  await rm(path(dataDir), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The running service of this data directory, or null when none is running. */
export async function findRunningService(dataDir: string): Promise<ServiceFile | null> {
  try {
    const file = JSON.parse(await readFile(path(dataDir), 'utf8')) as ServiceFile;
    return alive(file.pid) ? file : null;
  } catch {
    return null;
  }
}
