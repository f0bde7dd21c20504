import { describe, expect, it } from 'vitest';
import { ledgerPeriodStream, ledgerStream, ledgerUserOf, isLedgerRoot, parseLedgerStream } from '../ledger/ledger.events.js';
import { familyOf, streamFamily } from './streams.js';

describe('stream names', () => {
  const checks = streamFamily('check');

  it('builds `{family}-{id}` and takes it apart again', () => {
    expect(checks.stream('a-b-c')).toBe('check-a-b-c');
    expect(checks.prefix).toBe('check-');
    expect(checks.idOf('check-a-b-c')).toBe('a-b-c');
    expect(checks.owns('check-a')).toBe(true);
  });

  it('knows no id in a stream of another family, even one that starts alike', () => {
    expect(checks.idOf('checkout-1')).toBeNull();
    expect(checks.owns('explore-1')).toBe(false);
  });

  it('names the family of any stream (its topic)', () => {
    expect(familyOf('x402-8453-0xa-0xb-0xc')).toBe('x402');
    expect(familyOf('projection-rebuild-usage')).toBe('projection');
    expect(familyOf('plain')).toBe('plain');
  });

  it('refuses a family whose name would split the stream name', () => {
    expect(() => streamFamily('projection-rebuild')).toThrow();
    expect(() => streamFamily('')).toThrow();
  });

  it('parses the root and the period streams of a ledger', () => {
    expect(parseLedgerStream(ledgerStream('u-1'))).toEqual({ userId: 'u-1', month: null });
    expect(parseLedgerStream(ledgerPeriodStream('u-1', '2027-02-01T00:00:00.000Z'))).toEqual({ userId: 'u-1', month: '2027-02' });
    expect(parseLedgerStream('account-u-1')).toBeNull();
    expect(ledgerUserOf('ledger-u-1@2027-02')).toBe('u-1');
    expect(() => ledgerUserOf('account-u-1')).toThrow(/not a ledger stream/);
    expect(isLedgerRoot('ledger-u-1')).toBe(true);
    expect(isLedgerRoot('ledger-u-1@2027-02')).toBe(false);
    expect(isLedgerRoot('account-u-1')).toBe(false);
  });
});
