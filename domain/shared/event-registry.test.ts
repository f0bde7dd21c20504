import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RecordedEvent } from '../ports/event-store.port.js';
import { defineEventRegistry } from './event-registry.js';
import { streamFamily } from './streams.js';

/**
 * A registry of its own, whose `Deposited` changed shape: version 1 stored `{ usd }` (dollars, a float),
 * version 2 stores `{ amountMicros, currency }`. Data written as version 1 must read as version 2.
 */
const wallets = streamFamily('wallet');
const depositedV1 = z.object({ usd: z.number() });
const deposited = z.object({ amountMicros: z.number().int(), currency: z.literal('USD') });
const withdrawn = z.object({ amountMicros: z.number().int() });
const closedV1 = z.object({ reason: z.string() });

const registry = defineEventRegistry([{ streams: [wallets], schemas: { Deposited: deposited, Withdrawn: withdrawn } }], {
  versions: {
    Deposited: {
      current: 2,
      upcasters: { 1: (data) => ({ amountMicros: Math.round(depositedV1.parse(data).usd * 1e6), currency: 'USD' }) },
    },
  },
  // `WalletClosed` was retired: its events now read as a withdrawal of nothing.
  retired: {
    WalletClosed: {
      becomes: 'Withdrawn',
      schema: closedV1,
      upcast: (_data: z.infer<typeof closedV1>) => ({ type: 'Withdrawn', data: { amountMicros: 0 } }),
    },
  },
});

let commit = 0n;
function recorded(type: string, data: unknown, schemaVersion?: number): RecordedEvent {
  commit += 1n;
  return {
    id: `e${commit}`,
    type,
    data,
    metadata: {
      correlationId: 'c',
      occurredAt: '2026-01-01T00:00:00.000Z',
      ...(schemaVersion === undefined ? {} : { schemaVersion }),
    } as RecordedEvent['metadata'],
    streamId: wallets.stream('w1'),
    revision: commit,
    position: { commit, prepare: commit },
    created: new Date(0),
  };
}

describe('an event registry', () => {
  it('writes each type with its current schema version', () => {
    expect(registry.versionOf('Deposited')).toBe(2);
    expect(registry.versionOf('Withdrawn')).toBe(1);
    expect(registry.versionOf('NotRegistered')).toBe(1);
  });

  it('given an event stored in an old shape, when it is read after the schema change, then it reads in the new shape', () => {
    const old = recorded('Deposited', { usd: 12.5 }, 1);
    expect(registry.parse(old)).toMatchObject({
      type: 'Deposited',
      data: { amountMicros: 12_500_000, currency: 'USD' },
      streamId: 'wallet-w1',
    });
    expect(registry.upcast(old).data).toEqual({ amountMicros: 12_500_000, currency: 'USD' });
    expect(registry.dataOf('Deposited', old)).toEqual({ amountMicros: 12_500_000, currency: 'USD' });
  });

  it('reads an event without a schema version as version 1', () => {
    expect(registry.parse(recorded('Deposited', { usd: 1 }))?.data).toEqual({ amountMicros: 1_000_000, currency: 'USD' });
  });

  it('leaves an event of the current version as it is', () => {
    const current = recorded('Deposited', { amountMicros: 7, currency: 'USD' }, 2);
    expect(registry.parse(current)?.data).toEqual({ amountMicros: 7, currency: 'USD' });
    expect(registry.upcast(current)).toBe(current);
  });

  it('reads a retired type as its successor, and dispatches it under that name', () => {
    const closed = recorded('WalletClosed', { reason: 'moved' }, 1);
    expect(registry.parse(closed)).toMatchObject({ type: 'Withdrawn', data: { amountMicros: 0 } });
    expect(registry.upcast(closed)).toMatchObject({ type: 'Withdrawn', data: { amountMicros: 0 } });
    expect(registry.readAs('WalletClosed')).toBe('Withdrawn');
    expect(registry.readAs('Deposited')).toBe('Deposited');
    expect(registry.readAs('Unknown')).toBeNull();
  });

  it('ignores unknown types and refuses data that fit no schema', () => {
    expect(registry.parse(recorded('Unknown', {}))).toBeNull();
    expect(() => registry.parse(recorded('Withdrawn', { amountMicros: 'ten' }, 1))).toThrow();
    expect(() => registry.parse(recorded('Deposited', { usd: 'ten' }, 1))).toThrow();
    expect(() => registry.dataOf('Withdrawn', recorded('Deposited', { amountMicros: 1, currency: 'USD' }, 2))).toThrow(
      /expected a Withdrawn event/,
    );
  });

  it('parses a recorded event once however many readers ask', () => {
    const event = recorded('Withdrawn', { amountMicros: 3 }, 1);
    expect(registry.parse(event)).toBe(registry.parse(event));
  });

  it('refuses a history with a gap, a type registered twice, or a retired type that becomes nothing', () => {
    const schemas = { Deposited: deposited };
    expect(() =>
      defineEventRegistry([{ streams: [wallets], schemas }], { versions: { Deposited: { current: 3, upcasters: { 1: (d) => d } } } }),
    ).toThrow(/no upcaster from version 2/);
    expect(() =>
      defineEventRegistry([
        { streams: [wallets], schemas },
        { streams: [wallets], schemas },
      ]),
    ).toThrow(/registered twice/);
    expect(() =>
      defineEventRegistry([{ streams: [wallets], schemas }], {
        retired: { Old: { becomes: 'Missing', schema: closedV1, upcast: () => ({ type: 'Missing', data: {} }) } },
      }),
    ).toThrow(/becomes unregistered/);
  });

  it('lists its types and the stream families they live in', () => {
    expect(registry.types).toEqual(['Deposited', 'Withdrawn']);
    expect(registry.families).toEqual(['wallet']);
    expect(registry.isRegistered('Deposited')).toBe(true);
    expect(registry.isRegistered('WalletClosed')).toBe(false);
  });
});

describe('the trusted read of the folding paths', () => {
  it('upcasts without validating, and knows no unknown type', () => {
    expect(registry.read(recorded('Deposited', { usd: 2 }, 1))?.data).toEqual({ amountMicros: 2_000_000, currency: 'USD' });
    const current = recorded('Withdrawn', { amountMicros: 5 }, 1);
    expect(registry.read(current)).toBe(current);
    expect(registry.read(recorded('WalletClosed', { reason: 'x' }, 1))).toMatchObject({ type: 'Withdrawn', data: { amountMicros: 0 } });
    expect(registry.read(recorded('Unknown', {}))).toBeNull();
  });
});
