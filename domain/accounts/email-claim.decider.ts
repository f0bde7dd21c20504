import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import { emailClaimEventSchemas, normalizeEmail, type EmailClaimEvent } from './email-claim.events.js';

/**
 * One account per email address: logins find an account by its email, so a second account with the same
 * address could never log in. `knownOwner` is the owner the accounts read model knows (accounts opened
 * before email claims existed have no claim stream); null when it knows none.
 */
export type EmailClaimCommand = { type: 'ClaimEmail'; email: string; userId: string; knownOwner: string | null; at: string };

export interface EmailClaimState {
  owner: string | null;
}

export const initialEmailClaimState = (): EmailClaimState => ({ owner: null });

export function decideEmailClaim(command: EmailClaimCommand, state: EmailClaimState): EmailClaimEvent[] {
  const email = normalizeEmail(command.email);
  const owner = state.owner ?? command.knownOwner;
  // Claiming again for the same account (a retried open) changes nothing.
  if (state.owner === command.userId) return [];
  if (owner !== null && owner !== command.userId)
    throw fail('email_taken', `an account with the email ${email} already exists`, { userId: owner });
  return [{ type: 'EmailClaimed', data: { email, userId: command.userId, at: command.at } }];
}

export function evolveEmailClaim(state: EmailClaimState, event: EmailClaimEvent): EmailClaimState {
  switch (event.type) {
    case 'EmailClaimed':
      return { owner: event.data.userId };
  }
}

export const emailClaimDecider: Decider<EmailClaimCommand, EmailClaimEvent, EmailClaimState> = {
  decide: decideEmailClaim,
  evolve: evolveEmailClaim,
  initialState: initialEmailClaimState,
  parse: parserFor<EmailClaimEvent>(emailClaimEventSchemas),
};
