import { randomBytes } from 'node:crypto';
import type { Random } from '../../domain/ports/random.port.js';

export const cryptoRandom: Random = { bytes: (length) => new Uint8Array(randomBytes(length)) };
