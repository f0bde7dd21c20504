import pg from 'pg';

/**
 * Wakes live subscriptions when events may have become visible: at once for this process's own appends, by
 * LISTEN/NOTIFY for other processes' (each append is followed by one NOTIFY, coalesced while one is in
 * flight). The NOTIFY is sent after the append's commit, on this connection, never inside the append's
 * transaction: a notifying transaction holds a database-wide lock through its commit, which would make
 * every append wait for the previous one's commit. A lost notification (a writer killed between its commit
 * and its NOTIFY, this connection down) costs latency only: subscribers poll at least every `fallbackMs`.
 */
export interface Wakeups {
  /** Increases at every wake-up; a subscriber reads it before it reads the log, so no wake-up falls in between. */
  generation(): number;
  /** A local append committed. */
  appended(): void;
  /** Resolves once the generation moves past `seen`, after `timeoutMs`, or when `signal` aborts. */
  wait(seen: number, timeoutMs: number, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5000;

export async function openWakeups(
  server: { url: string; applicationName: string },
  channel: string,
  connectTimeoutMs: number,
): Promise<Wakeups> {
  let generation = 0;
  const waiters = new Set<() => void>();
  let listener: pg.Client | null = null;
  let closed = false;
  let notifying = false;
  let notifyAgain = false;
  let reconnectDelay = RECONNECT_MIN_MS;
  let reconnectTimer: NodeJS.Timeout | null = null;

  const bump = () => {
    generation += 1;
    for (const wake of [...waiters]) wake();
  };

  async function listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: server.url,
      application_name: server.applicationName,
      connectionTimeoutMillis: connectTimeoutMs,
    });
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    let ownPid = 0;
    // Its own NOTIFYs come back to this connection: local appends have woken the subscribers already.
    client.on('notification', (message) => {
      if (message.processId !== ownPid) bump();
    });
    await client.connect();
    // A NOTIFY-only transaction still writes a commit record; nothing is lost if it is not flushed, so it does not wait for it.
    await client.query('SET synchronous_commit = off');
    ownPid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0;
    await client.query(`LISTEN ${channel}`);
    listener = client;
    reconnectDelay = RECONNECT_MIN_MS;
    // Whatever was appended while no connection listened is picked up by the subscribers' next read.
    bump();
  }

  function lost(client: pg.Client) {
    if (listener !== client) return;
    listener = null;
    client.end().catch(() => undefined);
    if (!closed) scheduleReconnect();
  }

  function scheduleReconnect() {
    if (reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      if (closed) return;
      listen().catch(() => {
        reconnectDelay = Math.min(reconnectDelay * 2, RECONNECT_MAX_MS);
        scheduleReconnect();
      });
    }, reconnectDelay);
    reconnectTimer.unref();
  }

  function notifyOthers() {
    const client = listener;
    if (!client || closed) return;
    if (notifying) {
      notifyAgain = true;
      return;
    }
    notifying = true;
    client
      .query('SELECT pg_notify($1, $2)', [channel, ''])
      .catch(() => undefined)
      .finally(() => {
        notifying = false;
        if (notifyAgain) {
          notifyAgain = false;
          notifyOthers();
        }
      });
  }

  await listen();

  return {
    generation: () => generation,
    appended() {
      bump();
      notifyOthers();
    },
    wait(seen, timeoutMs, signal) {
      if (generation !== seen || signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        waiters.add(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    },
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      for (const wake of [...waiters]) wake();
      const client = listener;
      listener = null;
      await client?.end().catch(() => undefined);
    },
  };
}
