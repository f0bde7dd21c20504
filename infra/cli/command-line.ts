import { Command, CommanderError } from 'commander';
import type { ParsedArgs } from './args.js';
import { VERB_CATALOG, flagName } from './verb-catalog.js';

/** What the command line asks for: a verb with its arguments, help, or nothing valid (exit code 2). */
export type CommandLine =
  | { readonly kind: 'verb'; readonly verb: string; readonly args: ParsedArgs }
  | { readonly kind: 'help'; readonly text: string }
  | {
      readonly kind: 'refused';
      readonly text: string;
      readonly error: { readonly code: 'bad_request'; readonly message: string; readonly commands?: readonly string[] };
    };

const HELP_CODES = new Set(['commander.helpDisplayed', 'commander.version']);
const UNKNOWN_COMMAND_CODES = new Set(['commander.unknownCommand', 'commander.help']);

function buildProgram(output: { out: string; err: string }, chosen: (verb: string, command: Command) => void): Command {
  const program = new Command('cli')
    .usage('<verb> [options]')
    .description('Operator verbs: JSON on stdout, a non-zero exit on failure (2: a usage error). `<verb> --help` for a verb’s flags.')
    .exitOverride()
    .configureOutput({ writeOut: (text) => (output.out += text), writeErr: (text) => (output.err += text) })
    .showHelpAfterError();
  const groups = new Map<string, Command>();
  for (const [verb, spec] of Object.entries(VERB_CATALOG)) {
    const [first = verb, second] = verb.split(' ');
    let parent = program;
    if (second !== undefined) {
      const verbs = Object.keys(VERB_CATALOG)
        .filter((name) => name.startsWith(`${first} `))
        .map((name) => name.slice(first.length + 1));
      const group = groups.get(first) ?? program.command(first).description(verbs.join(', '));
      groups.set(first, group);
      parent = group;
    }
    const command = parent.command(second ?? first).description(spec.summary);
    for (const argument of spec.arguments ?? []) command.argument(argument);
    for (const [flags, description] of spec.options ?? []) command.option(flags, description);
    command.action(() => {
      chosen(verb, command);
    });
  }
  return program;
}

/** The verb's words and flags in the shape the verbs read (args.ts), from what commander parsed. */
function parsedArgsOf(verb: string, command: Command): ParsedArgs {
  const flags: Record<string, string | true> = {};
  for (const option of command.options) {
    const value: unknown = command.getOptionValue(option.attributeName());
    if (value === undefined || value === false) continue;
    // Declared options hold `true` (a switch) or the string given (commander parses no other types here).
    flags[flagName(option.flags)] = typeof value === 'string' ? value : true;
  }
  return { words: [...verb.split(' '), ...command.args], flags };
}

/** Parses argv against the verb catalog: unknown verbs and flags, missing values and extra arguments are refused. */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const output = { out: '', err: '' };
  const chosen: { verb?: string; args?: ParsedArgs } = {};
  const program = buildProgram(output, (verb, command) => {
    chosen.verb = verb;
    chosen.args = parsedArgsOf(verb, command);
  });
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (HELP_CODES.has(error.code)) return { kind: 'help', text: output.out };
    if (UNKNOWN_COMMAND_CODES.has(error.code)) {
      const words = argv.filter((arg) => !arg.startsWith('-'));
      return {
        kind: 'refused',
        text: output.err,
        error: { code: 'bad_request', message: `unknown command "${words.join(' ')}"`, commands: Object.keys(VERB_CATALOG) },
      };
    }
    return { kind: 'refused', text: output.err, error: { code: 'bad_request', message: error.message.replace(/^error: /, '') } };
  }
  if (chosen.verb === undefined || chosen.args === undefined) return { kind: 'help', text: output.out };
  return { kind: 'verb', verb: chosen.verb, args: chosen.args };
}

/** The parsed verb as argv again (values inline, so a value that starts with `--` stays a value): what the running service is sent. */
export function argvOf(args: ParsedArgs): string[] {
  return [...args.words, ...Object.entries(args.flags).map(([name, value]) => (value === true ? `--${name}` : `--${name}=${value}`))];
}
