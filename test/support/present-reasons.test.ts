import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `present(value, why)` states the invariant that guarantees the value, not the expression again:
 * `present(queues.get(stream), 'queues.get(stream)')` says nothing a stack trace does not. Checked in every
 * source folder.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const CHECKED = ['domain', 'commands', 'projections', 'read-api', 'processors', 'infra'];
const CALL = /present\(\s*((?:[^()']|\([^()]*\))*?)\s*,\s*'([^']*)'\s*\)/g;
const bare = (text: string) => text.replace(/[\s?!]/g, '');

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'assets' ? [] : sources(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
    }),
  );
  return nested.flat();
}

describe('present(value, why)', () => {
  it('finds an echoed expression', () => {
    const echoes = [..."present(a.b[0], 'a.b[0]') present(x, 'set just above')".matchAll(CALL)].filter(([, e, w]) => bare(e!) === bare(w!));
    expect(echoes.map(([call]) => call)).toEqual(["present(a.b[0], 'a.b[0]')"]);
  });

  it(`says why, not what, in ${CHECKED.join(', ')}`, async () => {
    const files = (await Promise.all(CHECKED.map((dir) => sources(join(ROOT, dir))))).flat();
    const echoes: string[] = [];
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      for (const [call, expression, why] of text.matchAll(CALL))
        if (bare(expression!) === bare(why!)) echoes.push(`${relative(ROOT, file)}: ${call}`);
    }
    expect(echoes).toEqual([]);
  });
});
