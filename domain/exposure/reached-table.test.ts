import { describe, expect, it } from 'vitest';
import { borrowReached, ReachedTable, returnReached } from './reached-table.js';

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

describe('the table of reached addresses', () => {
  it('finds every address it was given, and no other, across its growth', () => {
    const table = new ReachedTable(4);
    for (let n = 0; n < 5000; n++) expect(table.add(address(n), n, Math.max(0, n - 1), n % 7, n % 3 === 0)).toBe(n);
    expect(table.capacity).toBeGreaterThanOrEqual(5000);
    for (let n = 0; n < 5000; n++) {
      const row = table.rowOf(address(n));
      expect(row).toBe(n);
      expect([table.addressAt(row), table.share[row], table.parent[row], table.hop[row], table.estimated[row]]).toEqual([
        address(n),
        n,
        Math.max(0, n - 1),
        n % 7,
        n % 3 === 0 ? 1 : 0,
      ]);
    }
    expect(table.rowOf(address(5000))).toBe(-1);
    expect(table.rowOf('TXYZ')).toBe(-1);
  });

  it('tells apart addresses that end alike (the hash reads their last characters)', () => {
    const table = new ReachedTable(2);
    const alike = ['a', 'b', 'c', 'd', 'e'].map((first) => `${first}${'0'.repeat(30)}`);
    alike.forEach((a, n) => table.add(a, n, 0, 1, false));
    expect(alike.map((a) => table.rowOf(a))).toEqual([0, 1, 2, 3, 4]);
  });

  it('adds a part to a share, keeps the largest part as the route and marks an estimate', () => {
    const table = new ReachedTable();
    table.add('anchor', 1, 0, 0, false);
    const row = table.add('x', 0.2, 0, 1, false);
    table.add('y', 0.5, 0, 1, false);
    table.pass(row, 0.3, 2, true);
    table.pass(row, 0.1, 0, false);
    expect([table.share[row], table.bestPart[row], table.parent[row], table.estimated[row]]).toEqual([0.2 + 0.3 + 0.1, 0.3, 2, 1]);
  });

  it('comes back empty from the pool, its arrays kept', () => {
    const table = borrowReached();
    for (let n = 0; n < 3000; n++) table.add(address(n), 1, 0, 1, false);
    const capacity = table.capacity;
    returnReached(table);
    const again = borrowReached();
    expect(again).toBe(table);
    expect([again.size, again.capacity, again.rowOf(address(1))]).toEqual([0, capacity, -1]);
    returnReached(again);
  });
});
