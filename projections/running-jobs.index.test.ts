import { describe, expect, it } from 'vitest';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { createRunningJobsIndex, runningJobsProjection } from './running-jobs.index.js';

const requested = (checkId: string, at: string) =>
  event(`transfer-${checkId}`, 'TransferCheckRequested', {
    checkId,
    chain: 'ETH',
    txHash: '0xtx',
    requester: { channel: 'x402', payer: null },
    at,
  });

const spec = projectionSpec(runningJobsProjection, (store) => store);

describe('the running jobs read model', () => {
  it('a requested job is running until it fails, completes or times out', async () => {
    await spec
      .given([])
      .when([requested('t1', '2026-04-01T10:00:00.000Z')])
      .thenDocument('transfer-t1', { kind: 'transfer_check', id: 't1', requestedAt: '2026-04-01T10:00:00.000Z', stream: 'transfer-t1' });
    await spec
      .given([requested('t1', '2026-04-01T10:00:00.000Z')])
      .when([
        event('transfer-t1', 'TransferCheckFailed', {
          checkId: 't1',
          code: 'tx_not_found',
          message: 'no such tx',
          at: '2026-04-01T10:00:05.000Z',
        }),
      ])
      .thenDocument('transfer-t1', null);
  });

  it('each process loads the jobs still running from it at start', async () => {
    await spec
      .given([requested('t1', '2026-04-01T10:00:00.000Z'), requested('t2', '2026-04-01T10:00:01.000Z')])
      .when([event('transfer-t2', 'TransferCheckTimedOut', { checkId: 't2', at: '2026-04-01T10:15:01.000Z' })])
      .then(async (store) => {
        const index = createRunningJobsIndex();
        await index.load(store);
        expect(index.running()).toEqual([{ kind: 'transfer_check', id: 't1', requestedAt: '2026-04-01T10:00:00.000Z' }]);
      });
  });
});
