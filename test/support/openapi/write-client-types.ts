import { writeFile } from 'node:fs/promises';
import { clientTypesOf } from './client-types.js';
import { V2_TYPES_PATH } from './paths.js';
import { servedV2Document } from './served-documents.js';

/** `npm run openapi:types`: regenerates the committed client types from the documents the code serves. */
const text = await clientTypesOf(await servedV2Document(), V2_TYPES_PATH);
await writeFile(V2_TYPES_PATH, text);
process.stdout.write(`wrote ${V2_TYPES_PATH} (${text.length} characters)\n`);
