import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { clientTypesOf } from './client-types.js';
import { V2_TYPES_PATH } from './paths.js';
import { servedV2Document } from './served-documents.js';

/**
 * The committed client types (which the end-to-end tests of screen, check-address and check-transfer type
 * their bodies with) are what the current code's document generates: a route or schema change that alters
 * the document fails here until `npm run openapi:types` is run and the new types still typecheck.
 */
describe('generated OpenAPI client types', () => {
  it(`${V2_TYPES_PATH} matches the document the V2 app serves`, async () => {
    const generated = await clientTypesOf(await servedV2Document(), V2_TYPES_PATH);
    const committed = await readFile(V2_TYPES_PATH, 'utf8');
    expect(committed === generated, `${V2_TYPES_PATH} is stale: run \`npm run openapi:types\``).toBe(true);
  }, 60_000);
});
