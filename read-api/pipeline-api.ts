import type { ExposureBudget } from '../domain/exposure/exposure.schema.js';

/** What the full-check and explore routes need beyond the command deps, chosen by infra/topology and assembled by infra/wiring. */
export interface PipelineApi {
  /** The graph-search budget every full check gets (SVC_GRAPH_*). */
  readonly checkBudget: ExposureBudget;
  /** The most an explore job may ask for; a job's own limits are at most these. */
  readonly exploreMaxBudget: ExposureBudget;
}
