/**
 * What each verb accepts, as data: its summary, positional arguments and flags (commander syntax). The
 * command line (command-line.ts) builds its parser and `--help` from it, and runVerb refuses a flag
 * not listed here, so a typo such as `deposit … --dry-run` is refused instead of ignored. Kept free of
 * imports so that `--help` and a refusal load nothing else.
 */
export interface VerbSpec {
  readonly summary: string;
  /** Positional arguments, e.g. `<source>` (required) or `[address...]` (optional, repeatable). */
  readonly arguments?: readonly string[];
  /** `[flags, description]`: `--user <id>` takes a value, `--inspect` is a switch, `--from-dir [dir]` either. */
  readonly options?: readonly (readonly [string, string])[];
}

const USER = ['--user <id>', 'the account (user id)'] as const;
const PLAN = ['--plan <kind>', 'none, quota or ledger'] as const;
const QUOTA = ['--quota <units>', 'monthly units of a quota plan'] as const;
const LIMIT = ['--limit <n>', 'rows to return'] as const;

export const VERB_CATALOG: Readonly<Record<string, VerbSpec>> = {
  'account create': {
    summary: 'open an account (quota plan by default), optionally funded and with an API key',
    options: [
      ['--email <email>', 'the owner’s email (required, unique)'],
      ['--name <name>', 'the person’s name, as the dashboard shows it (default: the email)'],
      ['--org <name>', 'create an organization of this name'],
      ['--subgroup <name>', 'the organization’s first subgroup (default: Default)'],
      PLAN,
      QUOTA,
      ['--deposit <usd>', 'an opening deposit'],
      ['--cap <usd>', 'a monthly spending cap'],
      ['--inspect', 'entitle the multi-provider inspect (provider_a, provider_b)'],
      ['--with-key', 'issue an API key too (printed once)'],
    ],
  },
  'account plan': {
    summary: 'change an account’s plan and, with --cap, its monthly cap',
    options: [USER, PLAN, QUOTA, ['--cap <usd>', 'a monthly cap in USD, or none']],
  },
  'account entitle': {
    summary: 'replace the inspect providers an account may use',
    options: [USER, ['--providers <list>', 'comma-separated (default: provider_a,provider_b)']],
  },
  'account list': { summary: 'accounts, a page at a time', options: [LIMIT, ['--skip <n>', 'rows to skip']] },
  'account show': {
    summary: 'one account with its keys and billing',
    options: [
      ['--email <email>', 'find it by email'],
      ['--user <id>', 'or by user id'],
    ],
  },
  'account providers': {
    summary: 'save an account’s active inspect providers (empty: the own engine alone)',
    options: [USER, ['--providers <list>', 'comma-separated']],
  },
  'account password': {
    summary: 'set an account’s dashboard password',
    options: [USER, ['--password <password>', 'at least 8 characters']],
  },
  'account join': {
    summary: 'add an account to a subgroup',
    options: [USER, ['--subgroup <id>', 'the subgroup id'], ['--role <role>', 'member (default) or group_admin']],
  },
  'account superadmin': { summary: 'make an account a super-admin of the dashboard', options: [USER] },
  'key issue': { summary: 'issue an API key (printed once)', options: [USER] },
  'key revoke': { summary: 'revoke an API key', options: [USER, ['--key <id>', 'the key id']] },
  'key list': { summary: 'an account’s keys (never the secret)', options: [USER] },
  'key providers': {
    summary: 'save one key’s active inspect providers',
    options: [
      USER,
      ['--key <id>', 'the key id'],
      ['--providers <list>', 'comma-separated'],
      ['--clear', 'fall back to the account’s selection'],
    ],
  },
  deposit: {
    summary: 'credit an account’s balance',
    options: [USER, ['--usd <amount>', 'a positive amount'], ['--id <deposit-id>', 'an idempotency id: the same id deposits once']],
  },
  'ledger show': {
    summary: 'an account’s ledger periods and events',
    options: [USER, ['--period <YYYY-MM>', 'list the events of this period only']],
  },
  'ledger replay': {
    summary: 'replay the ledgers and compare with the balances (exit 1 on a mismatch)',
    options: [['--account <id>', 'one account only']],
  },
  'x402 payments': {
    summary: 'the x402 channel’s payments, revenue per day, payments to reconcile',
    options: [
      ['--status <status>', 'reserved, failed, uncertain, settled, waived, served or backend_failed'],
      ['--reconcile', 'only payments that need reconciliation'],
      LIMIT,
    ],
  },
  'data sync': {
    summary: 'sync the data sources from upstream (or from a directory)',
    options: [
      ['--from-dir [dir]', 'import from this directory (default: SVC_SOURCES_DIR)'],
      ['--source <list>', 'only these sources, comma-separated'],
    ],
  },
  'data import': { summary: 'import one source from a file or directory', arguments: ['<source>', '<path>'] },
  'data import-transfers': {
    summary: 'import transfers from BigQuery crypto_ethereum exports (CSV or Parquet) into the transfer graph; resumes where it stopped',
    arguments: ['<files...>'],
    options: [
      ['--network <network>', 'the chain of the exports (default ETH)'],
      [
        '--bulk',
        "load a network's history by the sorted bulk load, not through the bus: only into a network the graph holds nothing of, with the service stopped; the blocks the files cover are the load's, the live pipeline skips them after (docs/operations.md#the-transfer-graph-ingestion-backfill-disk)",
      ],
      ['--work-dir <dir>', "--bulk: where its run files go (default DATA_DIR; about the graph's size while it runs)"],
      [
        '--memory-mb <MB>',
        '--bulk: its memory budget in MiB (default 1024; docs/operations.md#the-transfer-graph-ingestion-backfill-disk)',
      ],
    ],
  },
  'data status': { summary: 'what the intelligence index holds' },
  'data curate': {
    summary: 'add or retract a curated entry',
    arguments: ['<action>'],
    options: [
      ['--address <address>', 'add: the address'],
      ['--network <network>', 'add: ETH, BSC or TRON'],
      ['--category <slug>', 'add: the risk category'],
      ['--evidence <url>', 'add: where the evidence is'],
      ['--label <name>', 'add: a label'],
      ['--identity', 'add: an identity, not a risk'],
      ['--confidence <1..100>', 'add: confidence (default 90)'],
      ['--id <entry-id>', 'add: an idempotency id; retract: the entry'],
      ['--reason <text>', 'retract: why'],
      ['--curator <name>', 'who curates (default: $USER)'],
    ],
  },
  screen: {
    summary: 'light screen, one JSON line per address (no charge)',
    arguments: ['[address...]'],
    options: [
      ['--network <network>', 'ETH, BSC or TRON'],
      ['--file <path>', 'one address per line (or a CSV’s first column)'],
    ],
  },
  'providers list': { summary: 'the configured inspect providers (never a key)' },
  'inspect show': { summary: 'one inspect as the event log holds it', options: [['--check <id>', 'the inspect’s check id']] },
  'kyt alert-level': {
    summary: 'show or set a subgroup’s default alert_min_level',
    options: [
      ['--subgroup <id>', 'the subgroup id'],
      ['--level <level>', 'Low, Medium, High or Severe (omit to show)'],
    ],
  },
  'kyt policy': { summary: 'the standard policy’s rules, as data' },
  'check show': { summary: 'one full check: state and event history', options: [['--id <check-id>', 'the check id']] },
  'explore show': { summary: 'one explore job: state and event history', options: [['--id <job-id>', 'the job id']] },
  'jobs running': { summary: 'the running full-check jobs, with their ages' },
  'reaper sweep': { summary: 'one reaper sweep now' },
  'transfers coverage': {
    summary: 'what the transfer index holds, and the ingester’s last block',
    options: [['--network <network>', 'ETH, BSC or TRON (default: all)']],
  },
  'projections list': { summary: 'the read models and their document counts' },
  'projections rebuild': { summary: 'rebuild one read model from the log while the old one keeps answering', arguments: ['<name>'] },
  'monitors stats': { summary: 'monitor counts and the last re-evaluation' },
  'monitors renew': { summary: 'a renewal sweep now' },
  'receipts keys': { summary: 'the verdict receipts’ signing keys: ids, dates, which one signs (never a private half)' },
  'receipts rotate-key': { summary: 'a new signing key for verdict receipts; the retired one keeps verifying the receipts it signed' },
  'verdict verify': {
    summary: 'verify a verdict receipt offline and print the verdict it signs (exit 1 when it does not verify)',
    arguments: ['<receipt>'],
    options: [['--jwks <url-or-file>', 'the key set to verify with (default: this data directory’s key ring)']],
  },
  'verdict replay': {
    summary: 'recompute a verdict from the log as of its time: identical, or the exact differences (exit 1 when it differs)',
    arguments: ['<verdict-id>'],
    options: [USER, ['--today', 'also recompute with today’s data: what changed since']],
  },
  'mcp-proxy': {
    summary: 'a stdio MCP server that pays the service’s x402 challenges, up to a cap',
    options: [
      ['--wallet-key-file <file>', 'the wallet’s private key file (required)'],
      ['--spend-cap-usd <usd>', 'the most this proxy may pay (required)'],
      ['--url <url>', 'the x402 /mcp URL (default: X402_MCP_URL or 127.0.0.1:X402_PORT)'],
    ],
  },
};

/** `--from-dir [dir]` → `from-dir`. */
export const flagName = (flags: string): string => (flags.split(/[ ,]/)[0] ?? '').replace(/^--/, '');

/** The flags a verb accepts, by name. */
export function acceptedFlags(verb: string): readonly string[] {
  return (VERB_CATALOG[verb]?.options ?? []).map(([flags]) => flagName(flags));
}
