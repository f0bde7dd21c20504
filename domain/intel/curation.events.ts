import { z } from 'zod';
import { SCREEN_NETWORKS } from '../shared/network.js';
import type { SourceDescriptor } from './intel.types.js';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `curation-{entryId}`: one analyst's claim about one address, with the evidence behind it,
 * and its retraction. Curated claims are a source like any other (`curator`, trust CURATOR_SOURCE),
 * added and retracted with `npm run cli -- data curate add|retract`.
 */
export const curationStreams = streamFamily('curation');
export const curationStream = curationStreams.stream;

/** Our own analysts: a claim needs an evidence URL, so it is trusted above community feeds. */
export const CURATOR_SOURCE: SourceDescriptor = {
  slug: 'curator',
  class: 'curator',
  trustWeight: 90,
  publicName: 'Service analysts (curated entries)',
  url: 'https://github.com/risk-screening-service/curation',
};

export const curationEventSchemas = {
  CuratorEntryAdded: z.object({
    entryId: z.string().min(1),
    address: z.string().min(1),
    network: z.enum(SCREEN_NETWORKS),
    kind: z.enum(['risk', 'identity']),
    category: z.string().min(1),
    label: z.string().min(1).nullable(),
    confidence: z.number().int().min(1).max(100),
    evidenceUrl: z.url(),
    curator: z.string().min(1),
    addedAt: z.iso.datetime({ offset: true }),
  }),
  CuratorEntryRetracted: z.object({
    entryId: z.string().min(1),
    reason: z.string().min(1),
    curator: z.string().min(1),
    retractedAt: z.iso.datetime({ offset: true }),
  }),
} as const;

type Schemas = typeof curationEventSchemas;
export type CurationEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];
export type CuratorEntry = z.infer<Schemas['CuratorEntryAdded']>;
export const CURATION_EVENT_TYPES = Object.keys(curationEventSchemas) as CurationEvent['type'][];
