import pg from 'pg';

/**
 * Where bench:graph keeps the graph: the LMDB store under the data directory (default), or with
 * GRAPH_STORE=postgres (`npm run bench:graph:external`, inside ci/with-servers.sh) the PostgreSQL store in a
 * schema of this run's own, named once by the parent and inherited by its restart children.
 */

export const externalGraph = (): boolean => process.env.GRAPH_STORE === 'postgres';

/** The service's environment for the graph store of this run (empty for the LMDB default). */
export function graphStoreEnv(schemaSuffix = ''): Record<string, string> {
  if (!externalGraph()) return {};
  process.env.BENCH_GRAPH_SCHEMA ??= `bench_graph_${Date.now().toString(36)}`;
  return { GRAPH_STORE: 'postgres', GRAPH_POSTGRES_SCHEMA: `${process.env.BENCH_GRAPH_SCHEMA}${schemaSuffix}` };
}

/** Bytes of the graph's tables with their indexes and TOAST, in PostgreSQL's own accounting. */
export async function postgresGraphBytes(schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: process.env.POSTGRES_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ bytes: string | null }>(
      `SELECT sum(pg_total_relation_size(c.oid)) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind = 'r'`,
      [schema],
    );
    return Number(rows[0]?.bytes ?? 0);
  } finally {
    await client.end();
  }
}

/** PostgreSQL's data directory (for dropping its files from the OS cache before the cold searches), or null. */
export async function postgresDataDirectory(): Promise<string | null> {
  const client = new pg.Client({ connectionString: process.env.POSTGRES_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ setting: string }>(`SELECT setting FROM pg_settings WHERE name = 'data_directory'`);
    return rows[0]?.setting ?? null;
  } catch {
    return null;
  } finally {
    await client.end();
  }
}
