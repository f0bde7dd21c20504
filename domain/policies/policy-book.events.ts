import { z } from 'zod';
import { streamFamily } from '../shared/streams.js';
import { policyRuleSchema } from './policy-rules.js';

/**
 * Stream `kytpolicies-{subgroupId}`: a subgroup's KYT policies, their drafts and versions, and which one is
 * active. One stream per subgroup, so activating one policy and retiring the other is one decision.
 */
export const policyBookStreams = streamFamily('kytpolicies');
export const policyBookStream = policyBookStreams.stream;

/** The standard policy's id: every subgroup's default and the template of its first draft. */
export const STANDARD_POLICY_ID = 'standard';

/** Who changed a policy: the user and the email address they had then. */
export const policyActorSchema = z.object({ userId: z.string(), email: z.string() });
export type PolicyActor = z.infer<typeof policyActorSchema>;

const change = { subgroupId: z.string(), policyId: z.string(), by: policyActorSchema, reason: z.string(), at: z.string() };

export const policyBookEventSchemas = {
  /** A new policy, as a draft copied from a version of another (the standard one by default). */
  PolicyDraftCreated: z.object({
    ...change,
    name: z.string(),
    basedOn: z.object({ policyId: z.string(), version: z.string() }),
    rules: z.array(policyRuleSchema).readonly(),
  }),
  /** The draft's rules (and name) replaced; a policy without a draft gets one from its latest version. */
  PolicyDraftEdited: z.object({ ...change, name: z.string(), rules: z.array(policyRuleSchema).readonly() }),
  /**
   * A version made active for the subgroup's transfer checks from now on: the draft frozen as the next
   * version (`rules` present), or an earlier version (or the standard policy) again.
   */
  PolicyActivated: z.object({ ...change, version: z.string(), name: z.string(), rules: z.array(policyRuleSchema).readonly().optional() }),
} as const;

type Schemas = typeof policyBookEventSchemas;
export type PolicyBookEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];
