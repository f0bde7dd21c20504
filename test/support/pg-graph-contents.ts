import pg from 'pg';

/**
 * Every row of a PostgreSQL graph store's tables in a fixed order, the data sets without their generated
 * ids: what two equal stores hold alike (the bulk load's tests compare a bulk-loaded store with a fold's).
 */
export async function pgGraphContents(url: string, schema: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const rows = async (sql: string) => (await client.query(sql)).rows as unknown[];
  try {
    return {
      edges: await rows(`SELECT * FROM ${schema}.edges ORDER BY network, owner, side, counterparty`),
      nodes: await rows(`SELECT * FROM ${schema}.nodes ORDER BY network, address`),
      datasets: await rows(
        `SELECT network, name, caveat, transfers, from_at, to_at, kind, version, up_to_block FROM ${schema}.datasets ORDER BY network, name`,
      ),
      journal: await rows(`SELECT count(*) AS n FROM ${schema}.journal`),
    };
  } finally {
    await client.end();
  }
}
