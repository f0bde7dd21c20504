import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARTIES } from '../../test/support/full-check-data.js';
import { pollUntil } from '../../test/support/polling.js';
import type { TestService } from '../../test/support/test-service.js';
import { startFullCheckService } from '../../test/support/full-check-service.js';
import { parseArgs } from './args.js';
import { runVerb } from './verbs.js';

let service: TestService;
const verb = (line: string) => runVerb(service.services, parseArgs(line.split(' ')));

beforeAll(async () => {
  service = await startFullCheckService();
});
afterAll(async () => {
  await service?.close();
});

describe('the full check operator verbs', () => {
  it('show a check with its tiers and history, the running jobs, and the transfer data', async () => {
    const user = await service.account({ depositUsd: 5 });
    const { check_id } = (
      await service.app.inject({
        method: 'POST',
        url: '/v2/check-address',
        headers: { authorization: `Bearer ${user.apiKey}` },
        payload: { address: PARTIES.d, network: 'ETH' },
      })
    ).json();
    const shown = await pollUntil(async () => {
      const result = await verb(`check show --id ${check_id}`);
      return (result.output as { status: string }).status === 'completed' ? result.output : null;
    });
    expect(shown).toMatchObject({ check_id, status: 'completed', decision: 'review', risk_level: 'medium', delivered: false });
    expect((shown as { tiers: unknown[] }).tiers).toHaveLength(5);
    expect((shown as { events: { type: string }[] }).events[0]!.type).toBe('AddressCheckRequested');
    await service.services.whenCaughtUp();
    expect((await verb('jobs running')).output).toMatchObject({ running: 0 });
    expect((await verb('reaper sweep')).output).toEqual({ failed: 0 });
    expect((await verb('transfers coverage --network eth')).output).toMatchObject({
      coverage: [{ network: 'ETH', datasets: [{ name: 'tx-sample-eth-lazarus/LazarusTabularTxsFullCheckTest.csv', transfers: 7 }] }],
      ingester: null,
    });
    await expect(verb('check show --id nope')).rejects.toMatchObject({ code: 'not_found' });
  });
});
