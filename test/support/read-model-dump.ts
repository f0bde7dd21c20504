import { PROJECTIONS, type Services } from '../../infra/bootstrap.js';

/** Every document of every read model, by collection, in a stable order: to compare two folds of one log. */
export async function dumpReadModels(services: Services): Promise<Record<string, unknown[]>> {
  await services.whenCaughtUp();
  const dump: Record<string, unknown[]> = {};
  for (const projection of PROJECTIONS) {
    const docs = await services.readStore.collection(projection.collection, projection.indexes).find({});
    dump[projection.collection] = docs.map((doc) => JSON.stringify(doc)).sort();
  }
  return dump;
}
