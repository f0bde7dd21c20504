import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isServiceError, type ServiceError } from '../../domain/shared/errors.js';

/** Made-up data sets in the official formats (test/fixtures/sources) and broken variants of them. */
export const SOURCE_FIXTURES = resolve(import.meta.dirname, '../fixtures/sources');
export const BROKEN_SOURCE_FIXTURES = resolve(import.meta.dirname, '../fixtures/sources-broken');
/**
 * The smallest sanctions data a service can screen with (one made-up OFAC SDN entry, in the official
 * format): what test services import when a test names no SVC_SOURCES_DIR, as the service fails closed
 * without any sanctions list. A folder laid out like ../shared/data, so it also serves as SVC_SOURCES_DIR.
 */
export const MINIMAL_SANCTIONS_DIR = resolve(import.meta.dirname, '../fixtures/sanctions-minimal');
/** The one address that list names (madeUpEvmAddress('sanctions-minimal:listed')). */
export const MINIMAL_SANCTIONS_ADDRESS = '0x28598aca91a164292ce15e617e4a6b820c8d9b85';

export const fixtureText = (path: string, encoding: BufferEncoding = 'utf8'): string => readFileSync(join(SOURCE_FIXTURES, path), encoding);
export const brokenFixtureText = (path: string): string => readFileSync(join(BROKEN_SOURCE_FIXTURES, path), 'utf8');

/** The ServiceError a call throws (fails the test when it throws nothing or something else). */
export function thrownBy(call: () => unknown): ServiceError {
  try {
    call();
  } catch (error) {
    if (isServiceError(error)) return error;
    throw error;
  }
  throw new Error('expected a ServiceError, nothing was thrown');
}
