import { accountDecider } from '../domain/accounts/account.decider.js';
import { accountStream } from '../domain/accounts/account.events.js';
import type { Position } from '../domain/ports/event-store.port.js';
import type { PasswordHasher } from '../domain/ports/password-hasher.port.js';
import { fail } from '../domain/shared/errors.js';
import type { CommandDeps } from './command-deps.js';

/** NIST SP 800-63B: at least 8 characters, long passphrases allowed; the upper bound caps the KDF's input. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** Sets the dashboard password of an account; only the scrypt hash reaches the log (PasswordSet). */
export async function setPassword(deps: CommandDeps, hasher: PasswordHasher, userId: string, password: string): Promise<Position | null> {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw fail('bad_request', `a password has ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  }
  const passwordHash = await hasher.hash(password);
  const outcome = await deps.executor.execute(
    accountStream(userId),
    accountDecider,
    { type: 'SetPassword', passwordHash, at: deps.clock.now().toISOString() },
    { commandId: deps.ids.newId() },
  );
  return outcome.position;
}
