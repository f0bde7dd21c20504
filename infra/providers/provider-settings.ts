import { z } from 'zod';
import { fail } from '../../domain/shared/errors.js';
import { SCREEN_NETWORKS, type Network } from '../../domain/shared/network.js';

/**
 * The outside providers of the multi-provider inspect, one slot per letter: `SVC_PROVIDER_A_*` is shown
 * to clients as `provider_a`, `SVC_PROVIDER_B_*` as `provider_b`, and so on. Per slot:
 *
 *   _KIND      goplus_address_security | chainalysis_sanctions (slot A defaults to the first, B to the second)
 *   _URL       base URL of the API (default: the vendor's public URL)
 *   _KEY       credential (GoPlus access token, Chainalysis X-API-Key)
 *   _ENABLED   1 | 0, the global switch (default 1, or 0 when the kind needs a key and none is set)
 *   _NETWORKS  comma-separated subset of ETH,BSC,TRON the provider is asked about (default all)
 *
 * Any other SVC_PROVIDER_<letter>_ variable is refused, so a typo cannot silently disable a provider.
 */
export const PROVIDER_KINDS = {
  goplus_address_security: { url: 'https://api.gopluslabs.io', needsKey: false },
  chainalysis_sanctions: { url: 'https://public.chainalysis.com', needsKey: true },
} as const;

export type ProviderKind = keyof typeof PROVIDER_KINDS;

const DEFAULT_SLOTS: Readonly<Record<string, ProviderKind>> = { A: 'goplus_address_security', B: 'chainalysis_sanctions' };
const VARIABLE = /^SVC_PROVIDER_([A-Z])_(.+)$/;
const FIELDS = ['KIND', 'URL', 'KEY', 'ENABLED', 'NETWORKS'];

export interface ProviderSetting {
  /** The public alias: `provider_a`, `provider_b`, … */
  readonly name: string;
  readonly kind: ProviderKind;
  readonly url: string;
  readonly key: string | null;
  readonly enabled: boolean;
  readonly networks: readonly Network[];
}

/** The inspect's time limits (spec: the POST waits about 115 s before a 202). */
export const inspectSettings = {
  SVC_INSPECT_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(115_000),
  SVC_INSPECT_WALL_CLOCK_CAP_MS: z.coerce.number().int().min(1).max(900_000).default(120_000),
  SVC_INSPECT_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1).max(300_000).default(20_000),
};

const slotSchema = (letter: string) =>
  z
    .object({
      KIND: z.enum(Object.keys(PROVIDER_KINDS) as [ProviderKind, ...ProviderKind[]]).optional(),
      URL: z.url({ protocol: /^https?$/ }).optional(),
      KEY: z.string().min(1).optional(),
      ENABLED: z.enum(['0', '1']).optional(),
      NETWORKS: z
        .string()
        .transform((list) => list.split(',').map((n) => n.trim().toUpperCase()))
        .pipe(z.array(z.enum(SCREEN_NETWORKS)).min(1))
        .optional(),
    })
    .transform((slot, ctx) => {
      const kind = slot.KIND ?? DEFAULT_SLOTS[letter];
      if (!kind) {
        ctx.addIssue({ code: 'custom', message: `SVC_PROVIDER_${letter}_KIND is required`, path: ['KIND'] });
        return z.NEVER;
      }
      const key = slot.KEY ?? null;
      return {
        name: `provider_${letter.toLowerCase()}`,
        kind,
        url: (slot.URL ?? PROVIDER_KINDS[kind].url).replace(/\/+$/, ''),
        key,
        enabled: slot.ENABLED === undefined ? !PROVIDER_KINDS[kind].needsKey || key !== null : slot.ENABLED === '1',
        networks: slot.NETWORKS ?? [...SCREEN_NETWORKS],
      } satisfies ProviderSetting;
    });

/** Reads every provider slot from the environment; slots A and B exist even when nothing is set. */
export function providerSettingsFromEnv(env: Readonly<Record<string, string | undefined>>): ProviderSetting[] {
  const slots = new Map<string, Record<string, string>>([...Object.keys(DEFAULT_SLOTS)].map((letter) => [letter, {}]));
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    const match = VARIABLE.exec(name);
    if (!match || value === undefined) continue;
    const [, letter, field] = match as unknown as [string, string, string];
    if (!FIELDS.includes(field)) unknown.push(name);
    else slots.set(letter, { ...slots.get(letter), [field]: value });
  }
  const problems = unknown.map((name) => `${name}: unknown setting (use ${FIELDS.map((f) => `_${f}`).join(', ')})`);
  const settings: ProviderSetting[] = [];
  for (const [letter, raw] of [...slots].sort(([a], [b]) => a.localeCompare(b))) {
    const parsed = slotSchema(letter).safeParse(raw);
    if (parsed.success) settings.push(parsed.data);
    else problems.push(...parsed.error.issues.map((i) => `SVC_PROVIDER_${letter}_${String(i.path[0] ?? 'KIND')}: ${i.message}`));
  }
  if (problems.length > 0) throw fail('config_invalid', `invalid configuration: ${problems.join('; ')}`);
  return settings;
}
