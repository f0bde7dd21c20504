import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { devAccount, startAnvil } from './chain/anvil.js';
import { transferChain } from './chain/transfer-chain.js';
import { startTestService, type TestService } from './test-service.js';
import { startX402Harness } from './x402-harness.js';

/**
 * Writes test/fixtures/verdicts/transfer-checks-v1.json: transfer checks as the code of the day stores
 * (the events of each `transfer-{id}` stream) and serves them (the 200 body of GET
 * /v2/transfer/{id}/result, without `billing`). Run by hand, once, on the code whose storage the fixture
 * freezes: `WRITE_STORED_TRANSFER_CHECKS=1 npx vitest run test/support/stored-transfer-checks.writer.test.ts`.
 * Every party is made up: a sanctioned address in a made-up OFAC-format list, an exploiter in a made-up
 * GraphSense TagPack, on a local anvil chain.
 */
const party = (name: string) => madeUpEvmAddress(`stored-transfer:${name}`) as Address;
const [SANCTIONED, EXPLOITER, MIDDLE, RECIPIENT] = [party('sanctioned'), party('exploiter'), party('middle'), party('recipient')];

async function madeUpSources(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-stored-transfer-'));
  await mkdir(join(dir, 'ofac-ultrasoundmoney-eth'));
  await writeFile(join(dir, 'ofac-ultrasoundmoney-eth', 'data.csv'), `address,name\n${SANCTIONED},"EXAMPLE SANCTIONED PARTY"\n`);
  await mkdir(join(dir, 'graphsense-tagpacks'));
  const tag = { address: EXPLOITER, currency: 'ETH', abuse: 'service_hack', label: 'example exploiter', source: 'https://example.org/x' };
  const pack = { title: 'Stored transfer checks', creator: 'Fixture', lastmod: '2026-11-01', confidence: 'service_data', tags: [tag] };
  await writeFile(join(dir, 'graphsense-tagpacks', 'stored-transfer.json'), JSON.stringify(pack, null, 2));
  return dir;
}

async function storedCheck(svc: TestService, apiKey: string, txHash: string) {
  const response = await svc.app.inject({
    method: 'POST',
    url: '/v2/check-transfer',
    headers: { authorization: `Bearer ${apiKey}` },
    payload: { chain: 'ETH', tx_hash: txHash },
  });
  const posted = response.json();
  const checkId = posted.check_id as string;
  await svc.services.whenCaughtUp();
  const events = [];
  for await (const e of svc.services.store.read(`transfer-${checkId}`)) events.push({ type: e.type, data: e.data, metadata: e.metadata });
  const served = await svc.app.inject({
    method: 'GET',
    url: `/v2/transfer/${checkId}/result`,
    headers: { authorization: `Bearer ${apiKey}` },
  });
  const { billing: _billing, receipt: _receipt, ...body } = served.json();
  return { checkId, txHash, served: 'v2', status: served.statusCode, events, body };
}

/** A check paid on x402 (the transfer checked is the settlement of a paid screen), read back on the free result route. */
async function storedX402Check() {
  const h = await startX402Harness({ lateEnv: async (anvil) => ({ CHAIN_RPC_BASE: anvil.rpcUrl }) });
  try {
    const txHash = h.receiptOf(await h.payingFetch()(`/screen/ETH/${party('x402-subject')}`)).transaction;
    const paid = await (await h.payingFetch()(`/check-transfer/base/${txHash}`)).json();
    const checkId = paid.check_id as string;
    await h.svc.services.whenCaughtUp();
    const events = [];
    for await (const e of h.svc.services.store.read(`transfer-${checkId}`))
      events.push({ type: e.type, data: e.data, metadata: e.metadata });
    const served = await fetch(`${h.url}/check-transfer-result/${checkId}`);
    const { billing: _billing, receipt: _receipt, elapsed_ms: _elapsed, ...body } = await served.json();
    return { checkId, txHash, served: 'x402', status: served.status, events, body };
  } finally {
    await h.close();
  }
}

describe.skipIf(!process.env.WRITE_STORED_TRANSFER_CHECKS)('stored transfer checks (fixture writer)', () => {
  it('writes the fixture', async () => {
    const anvil = await startAnvil({ chainId: 31337 });
    const sources = await madeUpSources();
    const svc = await startTestService({
      SVC_SOURCES_DIR: sources,
      CHAIN_RPC_ETH: anvil.rpcUrl,
      SVC_INGEST_RPC_URL: anvil.rpcUrl,
      SVC_INGEST_POLL_MS: '3600000',
    });
    try {
      const chain = transferChain(anvil.rpcUrl);
      const direct = await chain.sendNative(SANCTIONED, RECIPIENT, '2');
      await chain.sendNative(EXPLOITER, MIDDLE, '20');
      const indirect = await chain.sendNative(MIDDLE, RECIPIENT, '10');
      const clean = await chain.sendNative(devAccount(1).address, party('clean-recipient'), '1');
      await svc.services.fullCheck.ingester!.syncOnce();
      await svc.services.fullCheck.whenCaughtUp();
      const { userId, keyId, apiKey } = await svc.account({ depositUsd: 10 });
      const checks = [];
      for (const tx of [direct, indirect, clean, `0x${'ab'.repeat(32)}`]) checks.push(await storedCheck(svc, apiKey, tx));
      checks.push(await storedX402Check());
      const file = join(import.meta.dirname, '..', 'fixtures', 'verdicts', 'transfer-checks-v1.json');
      await writeFile(file, `${JSON.stringify({ ownerId: userId, keyId, checks }, null, 2)}\n`);
      expect(checks).toHaveLength(5);
    } finally {
      await svc.close();
      await anvil.stop();
      await rm(sources, { recursive: true, force: true });
    }
  }, 120_000);
});
