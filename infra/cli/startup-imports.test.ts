import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The modules main.ts loads before it runs anything: its static value imports, transitively (type imports are erased). */
function staticImportsOf(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(/^import (?!type )[^;]*? from '(\.{1,2}\/[^']+)\.js';$/gm)) {
      visit(resolve(dirname(file), `${match[1] ?? ''}.ts`));
    }
  };
  visit(entry);
  return seen;
}

describe('the CLI’s start-up', () => {
  it('loads neither the bootstrap, the configuration nor the verbs before it knows it must run a verb here', () => {
    const loaded = [...staticImportsOf(join(import.meta.dirname, 'main.ts'))].map((file) =>
      file.slice(resolve(import.meta.dirname, '../..').length + 1),
    );
    expect(loaded).toContain('infra/cli/command-line.ts');
    expect(loaded).toContain('infra/cli/remote-verb.ts');
    for (const heavy of ['infra/bootstrap.ts', 'infra/config.ts', 'infra/cli/verbs.ts', 'infra/cli/admin-route.ts'])
      expect(loaded).not.toContain(heavy);
  });
});
