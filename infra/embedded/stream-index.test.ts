import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamIndex } from './stream-index.js';

/**
 * The event log's index answers from what it has committed and from what it has not committed yet alike:
 * an append is acknowledged once the log holds it, and a read of its stream right after must see it, as
 * must the revision the append rule checks against.
 */
const opened: StreamIndex[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((index) => index.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function openIndex(): Promise<StreamIndex> {
  const dir = await mkdtemp(join(tmpdir(), 'stream-index-'));
  dirs.push(dir);
  const index = StreamIndex.open(join(dir, 'index.mdb'), { fsync: false });
  opened.push(index);
  return index;
}

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

describe('stream index', () => {
  it('locates a stream’s events across committed appends and appends not committed yet, both ways', async () => {
    const index = await openIndex();
    await index.add([{ offset: 0, stream: 's', ids: ids('a', 2), numbered: true }], 100);
    await index.settled();
    // Not committed: the commit waits for company (or for a read that needs it: none does).
    await index.add(
      [
        { offset: 100, stream: 's', ids: ids('b', 3), numbered: true },
        { offset: 200, stream: 't', ids: ids('c', 1), numbered: true },
      ],
      300,
    );
    expect(index.revision('s')).toBe(4n);
    expect(index.locations('s', 0, 'forwards', 10).map((at) => [at.revision, at.commit, at.prepare])).toEqual([
      [0, 0, 0],
      [1, 0, 1],
      [2, 100, 0],
      [3, 100, 1],
      [4, 100, 2],
    ]);
    expect(index.locations('s', 4, 'backwards', 3).map((at) => at.revision)).toEqual([4, 3, 2]);
    expect(index.locations('s', 1, 'forwards', 2).map((at) => at.revision)).toEqual([1, 2]);
    expect(index.view('s').idAt(3n)).toBe('b-1');
    expect(index.view('s').revisionOfId('a-1')).toBe(1n);
    await index.settled();
    expect(index.locations('s', 4, 'backwards', 10).map((at) => at.revision)).toEqual([4, 3, 2, 1, 0]);
  });

  it('never skips committed events that a page did not reach to hand out an uncommitted append past them', async () => {
    const index = await openIndex();
    await index.add(
      [
        { offset: 0, stream: 's', ids: ids('a', 3), numbered: true },
        { offset: 100, stream: 's', ids: ids('b', 2), numbered: true },
      ],
      200,
    );
    await index.settled();
    await index.add([{ offset: 200, stream: 's', ids: ids('c', 3), numbered: true }], 300);
    // The committed range stops after the first append (3 events reach the limit); revisions 3 and 4 follow.
    expect(index.locations('s', 1, 'forwards', 3).map((at) => at.revision)).toEqual([1, 2]);
    expect(index.locations('s', 3, 'forwards', 3).map((at) => at.revision)).toEqual([3, 4, 5]);
    // Pages may be short, never discontinuous: backwards, the uncommitted append first, then the committed ones.
    expect(index.locations('s', 7, 'backwards', 10).map((at) => at.revision)).toEqual([7, 6, 5]);
    expect(index.locations('s', 4, 'backwards', 10).map((at) => at.revision)).toEqual([4, 3, 2, 1, 0]);
  });
});
