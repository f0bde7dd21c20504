import { describe, expect, it } from 'vitest';
import { presentKeyed, type Presented } from './presented.js';

interface Done {
  readonly kind: 'completed';
  readonly verdict: string;
  readonly billing: { readonly model: 'quota'; readonly replay: boolean };
}
const present = (outcome: Done): Presented<object> => ({ status: 200, body: { verdict: outcome.verdict, billing: outcome.billing } });
const done: Done = { kind: 'completed', verdict: 'clean', billing: { model: 'quota', replay: false } };

describe('presentKeyed: the answer to a call under an Idempotency-Key', () => {
  it('a first execution is presented as it is', () => {
    expect(presentKeyed({ kind: 'outcome', outcome: done, replay: false }, present)).toEqual({
      status: 200,
      body: { verdict: 'clean', billing: { model: 'quota', replay: false } },
    });
  });

  it('a replayed outcome is presented with billing.replay true', () => {
    expect(presentKeyed({ kind: 'outcome', outcome: done, replay: true }, present)).toEqual({
      status: 200,
      body: { verdict: 'clean', billing: { model: 'quota', replay: true } },
    });
  });

  it('an answer recorded before outcomes were stored replays verbatim, with billing.replay true', () => {
    const recorded = { check_id: 'c1', result_url: '/v2/check-address/c1/result' };
    expect(presentKeyed({ kind: 'recordedAnswer', code: 202, body: recorded, replay: true }, present)).toEqual({
      status: 202,
      body: recorded,
    });
    const withBilling = { verdict: 'x', billing: { model: 'ledger', replay: false } };
    expect(JSON.stringify(presentKeyed({ kind: 'recordedAnswer', code: 200, body: withBilling, replay: true }, present).body)).toBe(
      JSON.stringify({ verdict: 'x', billing: { model: 'ledger', replay: true } }),
    );
  });
});
