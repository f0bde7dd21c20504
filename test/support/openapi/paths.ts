import { join } from 'node:path';

/** The committed client types of the V2 document (relative to the repository root, where npm runs). */
export const V2_TYPES_PATH = join('test', 'support', 'openapi', 'v2.d.ts');
