import { describe, expect, it } from 'vitest';
import { HTTP_STATUS } from '../errors.js';
import { balanceSchema } from './billing.js';
import { checkSubmittedSchema } from './check-address.js';
import { errorEnvelope } from './errors.js';
import { BALANCE_EXAMPLE, CHECK_SUBMITTED_EXAMPLE, ERROR_EXAMPLES, HEALTH_EXAMPLE, SCREEN_EXAMPLE } from './examples.js';
import { contractViolation } from './response-contract.js';
import { screenResultSchema } from './screen.js';
import { healthSchema } from './system.js';
import type { ErrorCode } from '../../domain/shared/errors.js';

describe('the document’s examples are bodies their schemas describe exactly', () => {
  it.each([
    ['screen', screenResultSchema, SCREEN_EXAMPLE],
    ['check submitted', checkSubmittedSchema, CHECK_SUBMITTED_EXAMPLE],
    ['balance', balanceSchema, BALANCE_EXAMPLE],
    ['health', healthSchema, HEALTH_EXAMPLE],
  ] as const)('%s', (_name, schema, example) => {
    expect(contractViolation(schema, example)).toBeNull();
  });

  it.each(Object.entries(ERROR_EXAMPLES))('error %s (with its own code, on its status)', (code, example) => {
    expect(contractViolation(errorEnvelope([code as ErrorCode]), example)).toBeNull();
    expect((example as { error: { code: string } }).error.code).toBe(code);
    expect(HTTP_STATUS[code as ErrorCode]).toBeGreaterThanOrEqual(400);
  });
});
