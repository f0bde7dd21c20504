import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A running service announces itself in DATA_DIR/service.json (pid, the CLI channel's Unix socket and its
 * token; mode 0600) so that the CLI sends its verbs through the service instead of opening the locked data
 * directory.
 */
export interface ServiceFile {
  readonly pid: number;
  /** The absolute path of the CLI channel's socket (cli-channel.ts). */
  readonly socket: string;
  readonly token: string;
}

const path = (dataDir: string) => join(dataDir, 'service.json');

/**
 * DATA_DIR as config.ts reads it (same default; a test keeps them equal), without loading the whole
 * configuration: finding the running service must not cost the configuration's imports.
 */
export const dataDirOf = (env: NodeJS.ProcessEnv): string => env.DATA_DIR ?? './data';

export async function announceService(dataDir: string, channel: { socket: string; token: string }): Promise<ServiceFile> {
  const file = { pid: process.pid, ...channel };
  await writeFile(path(dataDir), JSON.stringify(file), { mode: 0o600 });
  return file;
}

/** Removes the announcement, if it is this process's own. */
export async function withdrawService(dataDir: string): Promise<void> {
  if ((await readAnnouncement(dataDir))?.pid === process.pid) await rm(path(dataDir), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function readAnnouncement(dataDir: string): Promise<ServiceFile | null> {
  try {
    const file = JSON.parse(await readFile(path(dataDir), 'utf8')) as Partial<ServiceFile>;
    return typeof file.pid === 'number' && typeof file.socket === 'string' && typeof file.token === 'string' ? (file as ServiceFile) : null;
  } catch {
    return null;
  }
}

/** The running service of this data directory, or null when none is running (or it is an older one without a CLI socket). */
export async function findRunningService(dataDir: string): Promise<ServiceFile | null> {
  const file = await readAnnouncement(dataDir);
  return file && alive(file.pid) ? file : null;
}
