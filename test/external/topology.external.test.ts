import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkLedgerChain } from '../../commands/ledger-chain-walk.js';
import { CHECK_STREAM_PREFIX } from '../../domain/address-check/address-check.events.js';
import { transferCheckStream } from '../../domain/kyt/transfer-check.events.js';
import type { EventStore, RecordedEvent } from '../../domain/ports/event-store.port.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startAnvil, type Anvil } from '../support/chain/anvil.js';
import { transferChain } from '../support/chain/transfer-chain.js';
import { PARTIES, writeFullCheckSources } from '../support/full-check-data.js';
import { startTopology, type RoleProcess, type Topology } from '../support/topology.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { eventually } from '../contracts/eventually.js';
import { external, skippedSuite } from './external-env.js';

/**
 * The production topology for real: a projections process, two API processes and two processor processes,
 * each its own OS process started as production starts it (`infra/main.ts`, ROLE), on PostgreSQL (events),
 * Kafka (bus) and FerretDB (read models). A client spreads a mixed load over both APIs (light screens, full
 * checks, transfer checks on a local anvil chain, webhooks to a local receiver that fails some first
 * attempts), retrying on the other API with the same Idempotency-Key when one does not answer, as a client
 * of a load balancer would. Mid-load one API and one processor process are killed with SIGKILL and
 * started again. Afterwards: every call was acknowledged and charged exactly once, every check completed
 * once, every webhook delivery ended delivered, `ledger replay` finds no mismatch; and concurrent screens
 * on one small balance, spread over both APIs, never overspend.
 */

const SCREENS = 60;
const FULL_CHECKS = 12;
const TRANSFER_CHECKS = 8;
const SMALL_DEPOSIT_USD = 1;
const SCREEN_USD = 0.1;
const OVERSPEND_TRIES = 30;

type Reply = { status: number; body: Record<string, any> };

async function call(
  api: RoleProcess,
  method: string,
  path: string,
  options: { key: string; body?: unknown; idempotencyKey?: string },
): Promise<Reply> {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${options.key}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/**
 * A client behind a load balancer: tries the APIs in turn from `first`, moving to the next when one does not
 * answer (connection refused or reset: the process is dead) or answers 502/503, with the same Idempotency-Key.
 */
async function resilient(
  apis: readonly RoleProcess[],
  first: number,
  attempt: (api: RoleProcess) => Promise<Reply>,
  stats: { retried: number },
): Promise<Reply> {
  const deadline = Date.now() + 120_000;
  for (let n = first; ; n += 1) {
    const api = apis[n % apis.length]!;
    try {
      const reply = await attempt(api);
      if (reply.status !== 502 && reply.status !== 503) return reply;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline) throw new Error('no API answered for 120 s');
    stats.retried += 1;
    await new Promise((resolve) => setTimeout(resolve, 50 + (n - first) * 20));
  }
}

async function eventsOf(store: EventStore, stream: string): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for await (const event of store.read(stream)) events.push(event);
  return events;
}

const haveServers = external.postgresUrl && external.kafkaBrokers.length > 0 && external.mongoUrl;
if (!haveServers) {
  skippedSuite(
    'the topology as separate processes',
    'POSTGRES_URL, KAFKA_BROKERS and MONGO_URL are not all set (npm run test:external starts them)',
  );
} else {
  describe('the topology as separate processes on PostgreSQL, Kafka and FerretDB', () => {
    let topology: Topology;
    let anvil: Anvil;
    let receiver: Receiver;
    let sources: string;
    /** Each delivery id fails its first attempt when it is the 3rd, 6th, … to arrive: retries happen across the kills. */
    const failOnce = new Map<string, boolean>();
    beforeAll(async () => {
      sources = await writeFullCheckSources();
      anvil = await startAnvil({ chainId: 31337 });
      receiver = await startReceiver((_nth, { json }) => {
        if (!failOnce.has(json.delivery_id)) failOnce.set(json.delivery_id, failOnce.size % 3 === 2);
        return failOnce.get(json.delivery_id) && json.attempt === 1 ? 500 : 200;
      });
      topology = await startTopology(
        { postgresUrl: external.postgresUrl, kafkaBrokers: external.kafkaBrokers.join(','), mongoUrl: external.mongoUrl },
        {
          apis: 2,
          processors: 2,
          env: {
            SVC_SOURCES_DIR: sources,
            CHAIN_RPC_ETH: anvil.rpcUrl,
            WEBHOOK_ALLOW_LOCAL: '1',
            // Retries after 10 ms, 600 ms, 3.6 s (production: 5 s, 5 min, 30 min), same code.
            WEBHOOK_RETRY_SCALE: '0.002',
          },
        },
      );
    }, 600_000);
    afterAll(async () => {
      await topology?.close();
      await receiver?.close();
      await anvil?.stop();
      if (sources) await rm(sources, { recursive: true, force: true });
    });

    const account = async (email: string, depositUsd: number) => {
      const created = await topology.cli(topology.apis[0]!, [
        'account',
        'create',
        '--email',
        email,
        '--org',
        'Acme',
        '--subgroup',
        'Compliance',
        '--plan',
        'ledger',
        '--deposit',
        String(depositUsd),
        '--with-key',
      ]);
      expect(created.code, created.stderr).toBe(0);
      const { user_id: userId, api_key: key } = created.json as { user_id: string; api_key: string };
      // Each API folds the keys into the shared read models itself: wait until both know the new one.
      for (const api of topology.apis)
        await eventually(async () => expect((await call(api, 'GET', '/v2/balance', { key })).status).toBe(200), 60_000);
      return { userId, key };
    };

    it(
      'a mixed load through both APIs across a kill -9 of one API and one processor: everything acknowledged once, charged once, completed once, delivered',
      { timeout: 900_000 },
      async () => {
        const { apis, processors } = topology;
        const everyProcess = [topology.projections, ...apis, ...processors];
        const names = (list: readonly RoleProcess[]) => new Set(list.map((p) => p.name));
        // Five OS processes of their own (none of them this test's), each holding connections to PostgreSQL.
        const pids = everyProcess.map((p) => p.pid());
        expect(everyProcess.every((p) => p.isRunning())).toBe(true);
        expect(new Set(pids).size).toBe(everyProcess.length);
        expect(pids).not.toContain(process.pid);
        expect(await topology.postgresClients()).toEqual(names(everyProcess));
        const main = await account(`main-${randomUUID()}@example.test`, 500);
        const subscribed = await call(apis[0]!, 'POST', '/v1/webhooks', {
          key: main.key,
          body: { url: receiver.url, event_types: ['service.check.high_risk', 'tx.policy.alert.triggered'] },
        });
        expect(subscribed.status).toBe(201);
        for (const api of apis)
          await eventually(
            async () => expect((await call(api, 'GET', '/v1/webhooks', { key: main.key })).body.data).toHaveLength(1),
            60_000,
          );

        // Transfers on the chain: from the sanctioned party (a Severe alert and its webhook) and from made-up senders.
        const chain = transferChain(anvil.rpcUrl);
        const txHashes: string[] = [];
        for (let n = 0; n < TRANSFER_CHECKS; n += 1) {
          const from = (n % 2 === 0 ? PARTIES.s : madeUpEvmAddress(`topology:sender:${n}`)) as Address;
          txHashes.push(await chain.sendNative(from, madeUpEvmAddress(`topology:recipient:${n}`) as Address, '0.1'));
        }

        // The load: every operation under an Idempotency-Key, spread over both APIs.
        const stats = { retried: 0 };
        type Op = { kind: 'screen' | 'check' | 'transfer'; n: number; idempotencyKey: string };
        const ops: Op[] = [
          ...Array.from({ length: SCREENS }, (_, n) => ({ kind: 'screen' as const, n })),
          ...Array.from({ length: FULL_CHECKS }, (_, n) => ({ kind: 'check' as const, n })),
          ...Array.from({ length: TRANSFER_CHECKS }, (_, n) => ({ kind: 'transfer' as const, n })),
        ]
          .map((op) => ({ ...op, idempotencyKey: randomUUID() }))
          .sort((a, b) => ((a.n * 7919 + a.kind.length) % 97) - ((b.n * 7919 + b.kind.length) % 97));
        const screened: Reply[] = [];
        const checkIds: string[] = [];
        const transferIds: string[] = [];
        const addresses = [PARTIES.s, PARTIES.r, PARTIES.d, PARTIES.x, PARTIES.lonely];
        let acknowledged = 0;
        const perform = async (op: Op, i: number) => {
          const key = main.key;
          if (op.kind === 'screen') {
            const reply = await resilient(
              apis,
              i,
              (api) =>
                call(api, 'POST', '/v2/screen', {
                  key,
                  idempotencyKey: op.idempotencyKey,
                  body: { address: addresses[op.n % addresses.length], network: 'ETH' },
                }),
              stats,
            );
            expect(reply.status, JSON.stringify(reply.body)).toBe(200);
            screened.push(reply);
          } else if (op.kind === 'check') {
            const reply = await resilient(
              apis,
              i,
              (api) =>
                call(api, 'POST', '/v2/check-address', {
                  key,
                  idempotencyKey: op.idempotencyKey,
                  body: { address: addresses[op.n % addresses.length], network: 'ETH' },
                }),
              stats,
            );
            expect(reply.status, JSON.stringify(reply.body)).toBe(202);
            checkIds.push(reply.body.check_id as string);
          } else {
            const reply = await resilient(
              apis,
              i,
              (api) =>
                call(api, 'POST', '/v2/check-transfer', {
                  key,
                  idempotencyKey: op.idempotencyKey,
                  body: { chain: 'ETH', tx_hash: txHashes[op.n] },
                }),
              stats,
            );
            expect([200, 202], JSON.stringify(reply.body)).toContain(reply.status);
            transferIds.push(reply.body.check_id as string);
          }
          acknowledged += 1;
        };
        let next = 0;
        const worker = async () => {
          while (next < ops.length) {
            const i = next++;
            await perform(ops[i]!, i);
          }
        };
        const load = Promise.all(Array.from({ length: 8 }, worker));

        // Mid-load: kill -9 one API and one processor process, then start them again.
        await eventually(() => acknowledged >= ops.length / 3, 300_000);
        const [victimApi, victimProcessor] = [apis[0]!, processors[0]!];
        const victimPids = [victimApi.pid()!, victimProcessor.pid()!];
        await Promise.all([victimApi.kill9(), victimProcessor.kill9()]);
        const killedAt = acknowledged;
        // The kills land mid-load: calls were still to be made, or in flight, on the victims.
        expect(killedAt).toBeLessThan(ops.length);
        // The victims are gone (no such process), and PostgreSQL has seen their connections drop.
        for (const pid of victimPids) expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
        await eventually(async () => {
          const clients = await topology.postgresClients();
          expect(clients.has(victimApi.name) || clients.has(victimProcessor.name)).toBe(false);
        }, 30_000);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await Promise.all([victimApi.start(), victimProcessor.start()]);
        // Started again as new processes, connected again.
        expect([victimApi.pid(), victimProcessor.pid()].some((pid) => pid === undefined || victimPids.includes(pid))).toBe(false);
        expect(await topology.postgresClients()).toEqual(names(everyProcess));
        await load;
        expect(screened).toHaveLength(SCREENS);

        // Every full check completes; its first 200 charged it, and any later read is a free replay.
        for (const [i, checkId] of checkIds.entries()) {
          const result = await eventually(async () => {
            const reply = await call(apis[i % 2]!, 'GET', `/v2/check-address/${checkId}/result`, { key: main.key });
            expect(reply.status, JSON.stringify(reply.body)).toBe(200);
            return reply;
          }, 180_000);
          expect(result.body.status).toBe('completed');
          const again = await call(apis[(i + 1) % 2]!, 'GET', `/v2/check-address/${checkId}/result`, { key: main.key });
          expect(again.body.billing).toMatchObject({ replay: true });
        }
        for (const [i, checkId] of transferIds.entries()) {
          await eventually(
            async () => expect((await call(apis[i % 2]!, 'GET', `/v2/transfer/${checkId}/result`, { key: main.key })).status).toBe(200),
            180_000,
          );
        }

        const store = await topology.openStore();
        try {
          // Each check recorded its verdict once, whatever was killed under it.
          for (const checkId of checkIds) {
            const events = await eventsOf(store, `${CHECK_STREAM_PREFIX}${checkId}`);
            expect(
              events.filter((e) => e.type === 'CheckCompleted'),
              checkId,
            ).toHaveLength(1);
            expect(
              events.filter((e) => e.type === 'CheckResultDelivered'),
              checkId,
            ).toHaveLength(1);
          }
          // Each transfer check ended once: completed, never failed or timed out on top of it.
          for (const checkId of transferIds) {
            const ends = (await eventsOf(store, transferCheckStream(checkId))).filter((e) =>
              ['TransferCheckCompleted', 'TransferCheckFailed', 'TransferCheckTimedOut'].includes(e.type),
            );
            expect(
              ends.map((e) => e.type),
              checkId,
            ).toEqual(['TransferCheckCompleted']);
          }
          // The ledger: one charge per screen, per check and per transfer check, never two for one call.
          const charges = new Map<string, number>();
          const byEndpoint = new Map<string, number>();
          let charged = 0;
          for await (const period of walkLedgerChain(store, main.userId)) {
            expect(period.breaks).toEqual([]);
            for (const e of period.events.filter((event) => event.type === 'Charged')) {
              const data = e.data as { chargeId: string; amountMicros: number; details: { endpoint: string } };
              charges.set(data.chargeId, (charges.get(data.chargeId) ?? 0) + 1);
              byEndpoint.set(data.details.endpoint, (byEndpoint.get(data.details.endpoint) ?? 0) + 1);
              charged += data.amountMicros;
            }
          }
          expect(
            [...charges.values()].every((n) => n === 1),
            'a call charged twice',
          ).toBe(true);
          expect(Object.fromEntries(byEndpoint)).toEqual({
            'POST /v2/screen': SCREENS,
            'GET /v2/check-address/{check_id}/result': FULL_CHECKS,
            'POST /v2/check-transfer': TRANSFER_CHECKS,
          });
          const balance = await call(apis[1]!, 'GET', '/v2/balance', { key: main.key });
          expect(balance.body.balance_usd).toBeCloseTo(500 - charged / 1e6, 6);

          // Webhooks: every delivery scheduled ended delivered, after the retry its receiver asked for.
          const deliveries = new Set<string>();
          for await (const event of store.readAll()) if (event.streamId.startsWith('delivery-')) deliveries.add(event.streamId);
          expect(deliveries.size).toBeGreaterThanOrEqual(FULL_CHECKS / 5 + TRANSFER_CHECKS / 2);
          for (const stream of deliveries) {
            await eventually(async () => {
              const attempts = (await eventsOf(store, stream)).filter((e) => e.type === 'WebhookDeliveryAttempted');
              expect((attempts.at(-1)?.data as { status?: string } | undefined)?.status, stream).toBe('delivered');
            }, 120_000);
          }
        } finally {
          await store.close();
        }

        // The auditor's replay, sent to a running API as an operator would: no mismatch.
        const replay = await topology.cli(apis[1]!, ['ledger', 'replay']);
        expect(replay.json).toMatchObject({ mismatches: 0 });
        expect(replay.code).toBe(0);
        console.info(
          `topology: ${ops.length} calls (${SCREENS} screens, ${FULL_CHECKS} full checks, ${TRANSFER_CHECKS} transfer checks) over 2 APIs, ` +
            `${killedAt} acknowledged when api-1 and processors-1 were killed; ${stats.retried} retries on the other API; ` +
            `${receiver.received.length} webhook POSTs; every call charged once, every check completed once`,
        );
      },
    );

    it('concurrent screens on one small balance, spread over both APIs, never overspend', { timeout: 300_000 }, async () => {
      const small = await account(`small-${randomUUID()}@example.test`, SMALL_DEPOSIT_USD);
      const replies = await Promise.all(
        Array.from({ length: OVERSPEND_TRIES }, (_, n) =>
          call(topology.apis[n % 2]!, 'POST', '/v2/screen', { key: small.key, body: { address: PARTIES.lonely, network: 'ETH' } }),
        ),
      );
      const statuses = replies.map((r) => r.status);
      const affordable = Math.round(SMALL_DEPOSIT_USD / SCREEN_USD);
      expect(statuses.filter((s) => s === 200)).toHaveLength(affordable);
      expect(statuses.filter((s) => s === 402)).toHaveLength(OVERSPEND_TRIES - affordable);
      for (const api of topology.apis) expect((await call(api, 'GET', '/v2/balance', { key: small.key })).body.balance_usd).toBe(0);
    });
  });
}
