import { readFile, writeFile } from 'node:fs/promises';

/** The flag a benchmark or evaluation needs before it rewrites its README section. */
export const WRITE_README_FLAG = '--write-readme';

/** A run prints its figures; it rewrites the README only when asked on its command line. */
export function wantsReadmeWritten(argv: readonly string[]): boolean {
  return argv.slice(2).includes(WRITE_README_FLAG);
}

/**
 * Replaces the README section between `<!-- name:start -->` and `<!-- name:end -->` with `content`,
 * only when the command line carries --write-readme (`npm run bench:screen -- --write-readme`):
 * a plain run must leave the working tree as it was. Resolves whether the file was written.
 */
export async function updateReadme(
  name: string,
  content: string,
  options: { readonly argv?: readonly string[]; readonly path?: string } = {},
): Promise<boolean> {
  const { argv = process.argv, path = 'README.md' } = options;
  if (!wantsReadmeWritten(argv)) {
    process.stdout.write(`(README.md left as it is; pass ${WRITE_README_FLAG} to write these figures into its ${name} section)\n`);
    return false;
  }
  const readme = await readFile(path, 'utf8');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < 0) return false;
  await writeFile(path, `${readme.slice(0, from + start.length)}\n${content}\n${readme.slice(to)}`);
  return true;
}
