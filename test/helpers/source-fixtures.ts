import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isServiceError, type ServiceError } from '../../domain/shared/errors.js';

/** Made-up data sets in the official formats (test/fixtures/sources) and broken variants of them. */
export const SOURCE_FIXTURES = resolve(import.meta.dirname, '../fixtures/sources');
export const BROKEN_SOURCE_FIXTURES = resolve(import.meta.dirname, '../fixtures/sources-broken');

export const fixtureText = (path: string, encoding: BufferEncoding = 'utf8'): string =>
  readFileSync(join(SOURCE_FIXTURES, path), encoding);
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
