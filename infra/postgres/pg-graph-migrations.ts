import type { Migration } from './pg-migrations.js';

/**
 * The transfer graph store's schema (docs/ARCHITECTURE.md#the-transfer-graph), applied by `migrate` like the
 * event store's, in a schema of its own. Addresses sort bytewise (COLLATE "C"), as the LMDB store's do. Edges are kept once per side, in their owner's row set, and edges
 * and nodes are hash-partitioned by address: one hop reads one partition, and the address is the
 * distribution column a sharding extension (Citus' `create_distributed_table`) would take.
 */

/** Partitions per table: enough for a few writers and vacuum per partition, few enough to plan fast. */
export const GRAPH_PARTITIONS = 16;

const partitions = (schema: string, table: string): string =>
  Array.from(
    { length: GRAPH_PARTITIONS },
    (_, i) =>
      `CREATE TABLE ${schema}.${table}_p${i} PARTITION OF ${schema}.${table} FOR VALUES WITH (MODULUS ${GRAPH_PARTITIONS}, REMAINDER ${i});`,
  ).join('\n');

/**
 * Version 1. `edges`: one row per (network, owner, side, counterparty), side 0 incoming and 1 outgoing, sums in
 * micro-USD, times in epoch seconds, the earliest transfer as the sample; `kept` rows are the owner's ranked
 * counterparties (the others are its remainder). `nodes`: per address and side the totals. `units`: how a
 * (block, kind) was folded; `seen`: positions folded one by one; `journal`: revertible transfers;
 * `datasets`: coverage per data set; `sources`: ingesters' and importers' saved states.
 */
const GRAPH: Migration = {
  version: 1,
  name: 'transfer graph: edges and nodes partitioned by address',
  sql: (s) => `
    CREATE TABLE ${s}.edges (
      network smallint NOT NULL,
      owner text COLLATE "C" NOT NULL,
      side smallint NOT NULL,
      counterparty text COLLATE "C" NOT NULL,
      usd bigint NOT NULL,
      transfers bigint NOT NULL,
      unpriced bigint NOT NULL,
      estimated boolean NOT NULL,
      first_at bigint NOT NULL,
      last_at bigint NOT NULL,
      settled_last_at bigint,
      sample_origin integer NOT NULL,
      sample_position bigint NOT NULL,
      sample_tx text,
      kept boolean NOT NULL,
      PRIMARY KEY (network, owner, side, counterparty)
    ) PARTITION BY HASH (owner);
    ${partitions(s, 'edges')}
    CREATE INDEX edges_ranked ON ${s}.edges (network, owner, side, usd DESC, transfers DESC, counterparty) WHERE kept;

    CREATE TABLE ${s}.nodes (
      network smallint NOT NULL,
      address text COLLATE "C" NOT NULL,
      in_transfers bigint NOT NULL DEFAULT 0,
      in_usd bigint NOT NULL DEFAULT 0,
      in_unpriced bigint NOT NULL DEFAULT 0,
      in_counterparties bigint NOT NULL DEFAULT 0,
      in_kept bigint NOT NULL DEFAULT 0,
      in_estimated boolean NOT NULL DEFAULT false,
      out_transfers bigint NOT NULL DEFAULT 0,
      out_usd bigint NOT NULL DEFAULT 0,
      out_unpriced bigint NOT NULL DEFAULT 0,
      out_counterparties bigint NOT NULL DEFAULT 0,
      out_kept bigint NOT NULL DEFAULT 0,
      out_estimated boolean NOT NULL DEFAULT false,
      first_at bigint NOT NULL,
      last_at bigint NOT NULL,
      settled_last_at bigint,
      PRIMARY KEY (network, address)
    ) PARTITION BY HASH (address);
    ${partitions(s, 'nodes')}

    CREATE TABLE ${s}.units (
      network smallint NOT NULL,
      block bigint NOT NULL,
      kind smallint NOT NULL,
      state smallint NOT NULL,
      PRIMARY KEY (network, block, kind)
    );
    CREATE TABLE ${s}.seen (
      network smallint NOT NULL,
      origin integer NOT NULL,
      position bigint NOT NULL,
      PRIMARY KEY (network, origin, position)
    );
    CREATE TABLE ${s}.journal (
      network smallint NOT NULL,
      position bigint NOT NULL,
      sender text NOT NULL,
      recipient text NOT NULL,
      usd bigint,
      at bigint NOT NULL,
      dataset integer NOT NULL,
      PRIMARY KEY (network, position)
    );
    CREATE TABLE ${s}.datasets (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      network smallint NOT NULL,
      name text NOT NULL,
      caveat text,
      transfers bigint NOT NULL DEFAULT 0,
      from_at bigint,
      to_at bigint,
      kind text,
      version text,
      up_to_block bigint,
      UNIQUE (network, name)
    );
    CREATE TABLE ${s}.sources (name text PRIMARY KEY, state json NOT NULL);
  `,
};

/**
 * Version 2. `bulk_loads`: per network, the bulk load that claimed it (pg-graph-bulk.ts): `loading` while it
 * runs (the fold refuses the network's transfers), `loaded` after, with the blocks per kind it covered (the
 * fold skips chain positions inside them). The same states as the LMDB store's (bulk-claim.ts).
 */
const BULK_LOADS: Migration = {
  version: 2,
  name: 'transfer graph: bulk loads per network',
  sql: (s) => `
    CREATE TABLE ${s}.bulk_loads (
      network smallint PRIMARY KEY,
      state text NOT NULL CHECK (state IN ('loading', 'loaded')),
      native_from bigint,
      native_to bigint,
      token_from bigint,
      token_to bigint,
      transfers bigint NOT NULL DEFAULT 0
    );
  `,
};

export const GRAPH_MIGRATIONS: readonly Migration[] = [GRAPH, BULK_LOADS];
