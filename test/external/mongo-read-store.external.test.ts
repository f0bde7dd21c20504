import { randomUUID } from 'node:crypto';
import { afterAll } from 'vitest';
import { checkpointStoreContract, readStoreContract } from '../contracts/read-store.contract.js';
import { openMongoStores } from '../../infra/mongo/mongo-stores.js';
import { external, skippedSuite } from './external-env.js';

const name = 'MongoDB wire (FerretDB)';
const opened: { close(): Promise<void> }[] = [];
// Each store gets a database of its own, so `clear` cannot touch another suite's data.
const open = async () => {
  const stores = await openMongoStores(external.mongoUrl, `contract_${randomUUID().slice(0, 8)}`);
  opened.push(stores.checkpoints);
  return stores;
};
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

if (external.mongoUrl) {
  readStoreContract(name, async () => (await open()).readStore);
  checkpointStoreContract(name, async () => (await open()).checkpoints);
} else {
  skippedSuite(`ReadStore and CheckpointStore contracts: ${name}`, 'MONGO_URL is not set (npm run test:external starts FerretDB)');
}
