import { z } from 'zod';
import { streamFamily } from '../shared/streams.js';

/** Stream `account-{userId}`: who the user is, where they belong and what they may use. */
export const accountStreams = streamFamily('account');
export const accountStream = accountStreams.stream;

export const ROLES = ['member', 'group_admin'] as const;
export type Role = (typeof ROLES)[number];

export const accountEventSchemas = {
  AccountOpened: z.object({ userId: z.string(), email: z.string(), displayName: z.string(), at: z.string() }),
  OrganizationJoined: z.object({
    organizationId: z.string(),
    organizationName: z.string(),
    subgroupId: z.string(),
    subgroupName: z.string(),
    role: z.enum(ROLES),
    at: z.string(),
  }),
  EntitlementGranted: z.object({ entitlement: z.literal('inspect'), providers: z.array(z.string()), at: z.string() }),
  ProvidersSelected: z.object({ providers: z.array(z.string()), at: z.string() }),
  SuperAdminGranted: z.object({ at: z.string() }),
  PasswordSet: z.object({ passwordHash: z.string(), at: z.string() }),
} as const;

type Schemas = typeof accountEventSchemas;
export type AccountEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];
