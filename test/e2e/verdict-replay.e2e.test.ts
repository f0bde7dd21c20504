import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerb } from '../../infra/cli/verbs.js';
import { importOneSource } from '../../infra/sources/import-sources.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { sdnList } from '../helpers/ofac-sdn-list.js';
import { startAnvil, type Anvil } from '../support/chain/anvil.js';
import { transferChain } from '../support/chain/transfer-chain.js';
import { entitledAccount, inspectClient, recordedProviderEnv } from '../support/inspect-harness.js';
import { pollUntil } from '../support/polling.js';
import { startRecordedProviders, type RecordedProviders } from '../support/recorded-providers.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * POST /v2/verdicts/{id}/replay end to end, on a real (anvil) chain: a light screen, a full check and a
 * transfer check of a made-up address nobody flags; then a later version of the OFAC SDN list (the
 * official layout, our fixture) designates it. Replayed as of their time the three verdicts are
 * `identical`; replayed with today's data they differ, and say the address was listed after them.
 * Replays are free; someone else's verdict and an unknown one are 404.
 */
const party = (name: string) => madeUpEvmAddress(`replay:${name}`) as Address;
const SUBJECT = party('subject');

let anvil: Anvil;
let providers: RecordedProviders;
let dir: string;
let svc: TestService;
let owner: { apiKey: string; userId: string };
let stranger: { apiKey: string };

const call = (key: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  svc.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}` },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
const replay = (key: string, id: string, today = false) =>
  call(key, 'POST', `/v2/verdicts/${encodeURIComponent(id)}/replay${today ? '?today=true' : ''}`);
const balance = async () => (await call(owner.apiKey, 'GET', '/v2/billing/balance')).json().balance_usd as number;
/** The History indexes a verdict once its projection sees it. */
const stored = (id: string) =>
  pollUntil(async () => ((await call(owner.apiKey, 'GET', `/v2/verdicts/${id}`)).statusCode === 200 ? id : null));

async function importList(day: string, extraAddress?: string) {
  const file = join(dir, 'sdn_advanced.xml');
  await writeFile(file, sdnList(day, extraAddress));
  const [outcome] = await importOneSource(svc.services.commands, 'ofac_sdn', file);
  expect(outcome).toMatchObject({ status: 'imported', version: day });
  await svc.services.whenCaughtUp();
}

async function verdicts(): Promise<{ screen: string; fullCheck: string; transferCheck: string }> {
  const screen = await call(owner.apiKey, 'POST', '/v2/screen', { address: SUBJECT, network: 'ETH' });
  expect(screen.json().verdict.sdn_match).toBeNull();
  const submitted = (await call(owner.apiKey, 'POST', '/v2/check-address', { address: SUBJECT, network: 'ETH' })).json();
  await pollUntil(async () => ((await call(owner.apiKey, 'GET', submitted.result_url)).statusCode === 200 ? true : null));
  const txHash = await transferChain(anvil.rpcUrl).sendNative(SUBJECT, party('recipient'), '1');
  const transfer = await call(owner.apiKey, 'POST', '/v2/check-transfer', { chain: 'ETH', tx_hash: txHash });
  expect(transfer.statusCode, transfer.body).toBe(200);
  const ids = {
    screen: screen.json().verdict_id as string,
    fullCheck: submitted.check_id as string,
    transferCheck: transfer.json().check_id as string,
  };
  for (const id of Object.values(ids)) await stored(id);
  return ids;
}

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337 });
  providers = await startRecordedProviders();
  dir = await mkdtemp(join(tmpdir(), 'svc-replay-'));
  svc = await startTestService({ ...recordedProviderEnv(providers), SVC_SOURCES_DIR: dir, CHAIN_RPC_ETH: anvil.rpcUrl });
  owner = await svc.account({ depositUsd: 5 });
  stranger = await svc.account({ depositUsd: 5 });
  await importList('2026-03-01');
}, 90_000);
afterAll(async () => {
  await svc?.close();
  await anvil?.stop();
  await providers?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('verdict replay', () => {
  it('replays a screen, a full check and a transfer check identically as of their time, and shows what a later list changed', async () => {
    const ids = await verdicts();
    await importList('2026-03-02', SUBJECT);
    const before = await balance();

    for (const [kind, id] of [
      ['screen', ids.screen],
      ['full_check', ids.fullCheck],
      ['transfer_check', ids.transferCheck],
    ] as const) {
      const response = await replay(owner.apiKey, id, true);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body, kind).toMatchObject({ verdict_id: id, kind, as_of: { result: 'identical', difference_count: 0, differences: [] } });
      expect(
        body.as_of.data_versions
          .filter((row: { source: string }) => row.source === 'ofac_sdn')
          .map((row: { version: string }) => row.version),
      ).not.toContain('2026-03-02');
      expect(body.today, kind).toMatchObject({ result: 'different' });
      expect(body.today.difference_count, kind).toBeGreaterThan(0);
      expect(body.today.changes.join('\n'), kind).toMatch(/ofac_sdn.*2026-03-02|listed by ofac_sdn/);
      expect(body.today.changes.join('\n'), kind).toContain(`after your ${kind.replace('_', ' ')} of ${body.made_at.slice(0, 10)}`);
    }

    const screen = (await replay(owner.apiKey, ids.screen, true)).json();
    expect(screen.today.differences).toContainEqual({
      path: 'summary.sanctionsMatch',
      was: null,
      now: expect.objectContaining({ list: 'US' }),
    });
    expect(screen.today.changes.some((line: string) => line.startsWith('listed by ofac_sdn (US sanctions)'))).toBe(true);
    const transfer = (await replay(owner.apiKey, ids.transferCheck)).json();
    expect(transfer.today).toBeNull();
    expect(transfer.recorded_inputs.join(' ')).toMatch(/replayed as recorded/);

    // For auditors, the CLI: the same answer, a line of progress per step, exit 0 when identical as of then.
    const steps: string[] = [];
    const io = { progress: () => ({ update: (phase: string) => void steps.push(phase), stop: () => undefined }) };
    const cli = await runVerb(
      svc.services,
      { words: ['verdict', 'replay', ids.fullCheck], flags: { user: owner.userId, today: true } },
      io,
    );
    expect(cli).toMatchObject({
      exitCode: 0,
      output: { verdict_id: ids.fullCheck, as_of: { result: 'identical' }, today: { result: 'different' } },
    });
    expect(steps).toEqual(
      expect.arrayContaining([expect.stringMatching(/^reading the intelligence/), expect.stringMatching(/^recomputing as of/)]),
    );

    // Free: no replay charged anything.
    expect(await balance()).toBe(before);
  });

  it('replays an inspect from its recorded provider answers, the own engine again as of then, and with today’s data', async () => {
    const inspected = party('inspected');
    const { apiKey } = await entitledAccount(svc);
    const inspect = (await inspectClient(svc, apiKey).inspect({ address: inspected, network: 'ETH' })).json();
    expect(inspect).toMatchObject({ status: 'completed', audit: { decision: 'deal' } });
    await pollUntil(async () => ((await call(apiKey, 'GET', `/v2/verdicts/${inspect.check_id}`)).statusCode === 200 ? true : null));
    await importList('2026-03-03', inspected);
    const asked = providers.requests.length;

    const replayed = await replay(apiKey, inspect.check_id, true);
    expect(replayed.statusCode, replayed.body).toBe(200);
    const body = replayed.json();
    expect(body).toMatchObject({
      kind: 'inspect',
      as_of: { result: 'identical', difference_count: 0 },
      today: { result: 'different' },
      recorded_answers: [
        { provider: 'provider_a', kind: 'goplus_address_security', outcome: 'answered' },
        { provider: 'provider_b', kind: 'chainalysis_sanctions', outcome: 'answered' },
      ],
    });
    expect(body.today.differences).toContainEqual({ path: 'audit.decision', was: 'deal', now: 'do_not_deal' });
    expect(body.today.changes.join('\n')).toContain('listed by ofac_sdn (US sanctions)');
    expect(body.recorded_inputs.join(' ')).toMatch(/not asked again/);
    // The providers were not asked again, as of then nor today.
    expect(providers.requests.length).toBe(asked);
  });

  it('reads back and replays a monitor’s change as of its time, and shows what a later list changed', async () => {
    const watched = party('watched');
    const monitor = (await call(owner.apiKey, 'POST', '/v2/monitors', { address: watched, network: 'ETH' })).json();
    await importList('2026-03-04', watched);
    const changeKey = await pollUntil(async () => {
      for await (const event of svc.services.store.read(`monitor-${monitor.monitor_id}`))
        if (event.type === 'MonitorVerdictChanged') return (event.data as { changeKey: string }).changeKey;
      return null;
    });
    const id = `${monitor.monitor_id}:${changeKey}`;
    const stored = (await call(owner.apiKey, 'GET', `/v2/verdicts/${encodeURIComponent(id)}`)).json();
    expect(stored).toMatchObject({
      verdict_id: id,
      kind: 'monitor_change',
      subject: watched.toLowerCase(),
      verdict: { current: { risk_level: 'sanctioned' } },
    });
    expect(stored.receipt).toEqual(expect.any(String));
    expect((await call(stranger.apiKey, 'GET', `/v2/verdicts/${encodeURIComponent(id)}`)).statusCode).toBe(404);
    expect((await replay(stranger.apiKey, id)).statusCode).toBe(404);

    // A later list no longer names it: as of its time the change is reproduced, today it is not.
    await importList('2026-03-05');
    const body = (await replay(owner.apiKey, id, true)).json();
    expect(body).toMatchObject({
      kind: 'monitor_change',
      as_of: { result: 'identical' },
      today: { result: 'different' },
      recorded_answers: [],
    });
    expect(body.today.differences).toContainEqual(expect.objectContaining({ path: 'current.sanctionsMatch', now: null }));
    expect(body.today.changes).toContain('ofac_sdn no longer bears on it');
  });

  it('is the owner’s only: someone else’s verdict and an unknown one are 404', async () => {
    const screen = (await call(owner.apiKey, 'POST', '/v2/screen', { address: party('other'), network: 'ETH' })).json();
    await stored(screen.verdict_id);
    const foreign = await replay(stranger.apiKey, screen.verdict_id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ error: { code: 'not_found' } });
    expect((await replay(owner.apiKey, 'no-such-verdict')).statusCode).toBe(404);
    expect((await replay(owner.apiKey, 'x'.repeat(65))).statusCode).toBe(404);
    expect((await replay(owner.apiKey, screen.verdict_id)).json().as_of.result).toBe('identical');
  });
});
