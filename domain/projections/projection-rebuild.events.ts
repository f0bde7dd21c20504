import { z } from 'zod';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `projection-rebuild-{projection}`: rebuilds of one read model. The log itself coordinates them:
 * every projection runner, in any process, stops writing the read model when it reads `Started`, and on
 * `Finished` applies the events it skipped (from `resumeAfter`, or from `Started` when the rebuild was
 * abandoned) before it goes on. So no runner writes the live collection while the rebuilt one takes over.
 */
export const projectionRebuildStreams = streamFamily('projection');
export const projectionRebuildStream = (projection: string): string => projectionRebuildStreams.stream(`rebuild-${projection}`);

export const PROJECTION_REBUILD_STARTED = 'ProjectionRebuildStarted';
export const PROJECTION_REBUILD_FINISHED = 'ProjectionRebuildFinished';

/** A `$all` position in JSON (bigints as decimal strings). */
const positionSchema = z.object({ commit: z.string().regex(/^\d+$/), prepare: z.string().regex(/^\d+$/) });

export const projectionRebuildEventSchemas = {
  [PROJECTION_REBUILD_STARTED]: z.object({ projection: z.string(), rebuildId: z.string(), at: z.string() }),
  [PROJECTION_REBUILD_FINISHED]: z.object({
    projection: z.string(),
    rebuildId: z.string(),
    outcome: z.enum(['completed', 'abandoned']),
    /** The last event the rebuilt collection holds; null when abandoned (the old collection stays). */
    resumeAfter: positionSchema.nullable(),
    at: z.string(),
  }),
} as const;

type Schemas = typeof projectionRebuildEventSchemas;
export type ProjectionRebuildEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];
