import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Names on shared servers (Kafka topic/group prefix, MongoDB database) for one service's data.
 * With EventStoreDB or PostgreSQL the log itself is shared, so the names are fixed (or configured). With the embedded log,
 * positions only mean something for one data directory, so its topics and read models get names derived
 * from an id kept in that directory: a restart finds its own again, another directory (a test) never sees them.
 */
export async function externalNames(config: {
  EVENT_STORE: 'embedded' | 'esdb' | 'postgres';
  DATA_DIR: string;
  KAFKA_PREFIX?: string | undefined;
  MONGO_DB?: string | undefined;
}): Promise<{ kafkaPrefix: string; mongoDb: string }> {
  if (config.EVENT_STORE !== 'embedded') return { kafkaPrefix: config.KAFKA_PREFIX ?? '', mongoDb: config.MONGO_DB ?? 'risk_screening' };
  const id = await instanceId(config.DATA_DIR);
  return { kafkaPrefix: config.KAFKA_PREFIX ?? `svc-${id}.`, mongoDb: config.MONGO_DB ?? `svc_${id}` };
}

async function instanceId(dataDir: string): Promise<string> {
  const file = join(dataDir, 'instance-id');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(dataDir, { recursive: true });
    const id = randomBytes(6).toString('hex');
    await writeFile(file, `${id}\n`, { flag: 'wx' }).catch(() => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
}
