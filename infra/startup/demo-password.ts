import { setPassword } from '../../commands/passwords.commands.js';
import type { Services } from '../bootstrap.js';
import { DEMO_EMAIL, demoAccountWanted } from './demo-account.js';

const ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const GENERATED_LENGTH = 20;

/**
 * The demo account's dashboard password. SVC_DEMO_PASSWORD, when set, is made the password (a no-op when it
 * already is). When unset and the demo has no password yet, one is generated and returned to be printed
 * once; later starts keep it.
 */
export async function ensureDemoPassword(services: Services): Promise<{ generated: string | null }> {
  const { config, commands, repositories, app } = services;
  if (!demoAccountWanted(config)) return { generated: null };
  const demo = await repositories.accounts.byEmail(DEMO_EMAIL);
  if (!demo) return { generated: null };
  const hasher = app.dashboard.passwords;
  const wanted = config.SVC_DEMO_PASSWORD;
  if (wanted !== undefined) {
    if (demo.passwordHash && (await hasher.verify(wanted, demo.passwordHash))) return { generated: null };
    await app.whenProjected(await setPassword(commands, hasher, demo.userId, wanted));
    return { generated: null };
  }
  if (demo.passwordHash) return { generated: null };
  // 20 characters of a 56-letter alphabet (no look-alikes): about 116 bits. Bytes ≥ 224 are skipped (no modulo bias).
  let password = '';
  while (password.length < GENERATED_LENGTH) {
    for (const byte of commands.random.bytes(32)) if (byte < 224 && password.length < GENERATED_LENGTH) password += ALPHABET[byte % 56];
  }
  await app.whenProjected(await setPassword(commands, hasher, demo.userId, password));
  return { generated: password };
}
