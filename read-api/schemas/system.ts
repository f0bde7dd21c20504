import { z } from 'zod';
import { sanctionsCoverageSchema } from '../../domain/webhooks/sanctions-coverage.words.js';
import { SANCTIONS_JURISDICTIONS } from '../../domain/intel/intel.types.js';
import { SCREEN_NETWORKS, TRANSFER_CHAINS } from '../../domain/shared/network.js';
import { HEALTH_EXAMPLE } from './examples.js';

/** Bodies of the free, public routes: GET /v2/health and GET /v2/networks (read-api/routes/system.routes.ts). */

export const healthSchema = z
  .strictObject({
    status: z.enum(['ok', 'degraded', 'starting']),
    /** Why the service is degraded (no sanctions list, a jurisdiction without one, or one past its age). */
    reasons: z.array(z.string()).optional(),
    /** The sanctions lists a verdict made now is checked against: the same shape as every verdict's coverage.sanctions. */
    sanctions: sanctionsCoverageSchema.extend({
      required: z
        .array(z.enum(SANCTIONS_JURISDICTIONS))
        .meta({ description: 'Jurisdictions without whose list screening fails closed (SVC_REQUIRED_SANCTIONS)' }),
    }),
    version: z.string(),
    mode: z.string(),
    data_snapshot: z.string().nullable(),
    datasets: z.array(
      z.strictObject({ source: z.string(), version: z.string(), content_hash: z.string(), claims: z.number().int().min(0) }),
    ),
  })
  .meta({ description: 'Liveness and the data the verdicts come from (503 while starting)', example: HEALTH_EXAMPLE });
export type HealthBody = z.infer<typeof healthSchema>;

export const networksSchema = z
  .strictObject({
    screen: z.array(z.enum(SCREEN_NETWORKS)),
    check_address: z.array(z.enum(SCREEN_NETWORKS)),
    inspect_address: z.array(z.enum(SCREEN_NETWORKS)),
    check_transfer: z.array(z.enum(TRANSFER_CHAINS)),
  })
  .meta({
    description: 'The networks and chains each endpoint accepts',
    example: {
      screen: [...SCREEN_NETWORKS],
      check_address: [...SCREEN_NETWORKS],
      inspect_address: [...SCREEN_NETWORKS],
      check_transfer: [...TRANSFER_CHAINS],
    },
  });
export type NetworksBody = z.infer<typeof networksSchema>;
