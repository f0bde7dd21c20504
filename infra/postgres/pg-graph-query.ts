/** How the graph store's SQL modules run a statement: on the pool, or on the client of the caller's transaction. */
export type Query = <R = Record<string, unknown>>(sql: string, params?: readonly unknown[]) => Promise<R[]>;
