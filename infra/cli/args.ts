import { fail } from '../../domain/shared/errors.js';

/** `verb sub --flag value --switch positional…` → words, flags and positionals. */
export interface ParsedArgs {
  readonly words: string[];
  readonly flags: Record<string, string | true>;
}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const words: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg.startsWith('--')) {
      // Split at the first `=` only: `--evidence=https://x/?a=b` keeps its whole value.
      const body = arg.slice(2);
      const equals = body.indexOf('=');
      const name = equals === -1 ? body : body.slice(0, equals);
      const inline = equals === -1 ? undefined : body.slice(equals + 1);
      const next = argv[i + 1];
      if (inline !== undefined) flags[name] = inline;
      else if (next !== undefined && !next.startsWith('--')) {
        flags[name] = next;
        i++;
      } else flags[name] = true;
    } else words.push(arg);
  }
  return { words, flags };
}

export function flag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags[name];
  if (value === true) throw fail('bad_request', `--${name} needs a value`);
  return value;
}

export function requiredFlag(args: ParsedArgs, name: string): string {
  const value = flag(args, name);
  if (value === undefined) throw fail('bad_request', `--${name} is required`);
  return value;
}

export function numberFlag(args: ParsedArgs, name: string): number | undefined {
  const value = flag(args, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw fail('bad_request', `--${name} must be a non-negative number`);
  return n;
}
