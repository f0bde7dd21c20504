import { z } from 'zod';
import { SCREEN_NETWORKS } from '../shared/network.js';
import { CLAIM_DATINGS, SANCTIONS_JURISDICTIONS, type Claim, type SourceDescriptor, type TokenListing } from './intel.types.js';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `dataset-{source}`: the imports of one source. An import is ONE append:
 * DatasetImportStarted, N × ClaimBatchImported (≤ 2000 claims each), TokensImported when the source
 * lists tokens, DatasetImportCompleted. A completed import replaces the source's previous one whole.
 * Every event names its source, so a reader folding `$all` never has to infer it from neighbours.
 */
export const datasetStreams = streamFamily('dataset');
export const datasetStream = datasetStreams.stream;
export const CLAIM_BATCH_SIZE = 2000;

const network = z.enum(SCREEN_NETWORKS);
const confidence = z.number().int().min(0).max(100);
const timestamp = z.iso.datetime({ offset: true });

export const sourceDescriptorSchema = z.object({
  slug: z.string().min(1),
  class: z.enum(['sanctions_registry', 'licensed_feed', 'block_explorer', 'community_feed', 'curator']),
  trustWeight: confidence,
  publicName: z.string().min(1),
  url: z.string().min(1),
  alias: z.string().min(1).optional(),
  /** Absent in imports recorded before it was added: the index reads the jurisdiction off the list's entries then. */
  jurisdiction: z.enum(SANCTIONS_JURISDICTIONS).optional(),
}) satisfies z.ZodType<SourceDescriptor>;

const claimBase = {
  address: z.string().min(1),
  scope: z.union([z.literal('evm'), network]),
  category: z.string().min(1),
  label: z.string().nullable(),
  confidence,
  sourceUrl: z.string().min(1),
  firstSeenAt: timestamp,
  lastSeenAt: timestamp,
  datedBy: z.enum(CLAIM_DATINGS).optional(),
  source: z.string().min(1),
};

export const claimSchema = z.discriminatedUnion('kind', [
  z.object({ ...claimBase, kind: z.literal('risk') }),
  z.object({ ...claimBase, kind: z.literal('identity'), label: z.string().min(1) }),
  z.object({
    ...claimBase,
    kind: z.literal('sanction'),
    sanction: z.object({
      list: z.enum(SANCTIONS_JURISDICTIONS),
      entity: z.string().nullable(),
      program: z.string().nullable(),
      listEntryId: z.string().nullable(),
      listDate: z.string().nullable(),
      asset: z.string().nullable(),
    }),
  }),
]) satisfies z.ZodType<Claim>;

export const tokenListingSchema = z.object({
  address: z.string().min(1),
  source: z.string().min(1),
  chain: network,
  symbol: z.string().nullable(),
  name: z.string().nullable(),
  decimals: z.number().int().min(0).nullable(),
  logoUrl: z.string().nullable(),
  tags: z.array(z.string()).readonly(),
}) satisfies z.ZodType<TokenListing>;

export const datasetEventSchemas = {
  DatasetImportStarted: z.object({
    source: z.string().min(1),
    version: z.string().min(1),
    contentHash: z.string().min(1),
    claimCount: z.number().int().min(0),
    importedAt: timestamp,
    descriptor: sourceDescriptorSchema,
  }),
  ClaimBatchImported: z.object({ source: z.string().min(1), batch: z.array(claimSchema).max(CLAIM_BATCH_SIZE) }),
  TokensImported: z.object({ source: z.string().min(1), tokens: z.array(tokenListingSchema).readonly() }),
  DatasetImportCompleted: z.object({ source: z.string().min(1), contentHash: z.string().min(1) }),
} as const;

type Schemas = typeof datasetEventSchemas;
export type DatasetEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];
export const DATASET_EVENT_TYPES = Object.keys(datasetEventSchemas) as DatasetEvent['type'][];
