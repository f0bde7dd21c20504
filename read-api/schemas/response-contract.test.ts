import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractViolation, firstDifference, responseSerializerCompiler } from './response-contract.js';

const schema = z.strictObject({ id: z.string(), nested: z.object({ n: z.number() }), when: z.string().nullable() });
const serializerFor = (check: boolean) => responseSerializerCompiler(check)({ schema, method: 'GET', url: '/x', httpStatus: '200' });

describe('response contract', () => {
  it('accepts a body the schema describes exactly', () => {
    expect(contractViolation(schema, { id: 'a', nested: { n: 1 }, when: null })).toBeNull();
  });

  it('refuses a missing, mistyped or extra top-level field', () => {
    expect(contractViolation(schema, { id: 'a', nested: { n: 1 } })).toMatch(/when/);
    expect(contractViolation(schema, { id: 1, nested: { n: 1 }, when: null })).toMatch(/id/);
    expect(contractViolation(schema, { id: 'a', nested: { n: 1 }, when: null, extra: true })).toMatch(/extra/);
  });

  it('refuses a field a non-strict nested object would silently strip', () => {
    expect(contractViolation(schema, { id: 'a', nested: { n: 1, hidden: 'x' }, when: null })).toMatch(/\$\.nested\.hidden/);
  });

  it('holds the body as sent: undefined fields are absent, dates are strings', () => {
    const dated = z.strictObject({ at: z.string() });
    expect(contractViolation(dated, { at: new Date(0), gone: undefined })).toBeNull();
  });

  it('writes the handler’s value unchanged, field order included', () => {
    const body = { when: null, nested: { n: 1 }, id: 'a' };
    expect(serializerFor(true)(body)).toBe(JSON.stringify(body));
    // unchecked (production): written as is even when it drifts; the tests are where drift fails
    expect(serializerFor(false)({ ...body, extra: 1 })).toBe(JSON.stringify({ ...body, extra: 1 }));
  });

  it('fails loudly when checking and the body drifts', () => {
    expect(() => serializerFor(true)({ id: 'a', nested: { n: 1, hidden: 2 }, when: null })).toThrow(/GET \/x 200/);
  });

  it('finds the first differing path', () => {
    expect(firstDifference({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] })).toBe('$.a[1].b');
    expect(firstDifference([1, 2], [1])).toBe('$.length');
    expect(firstDifference({ a: 1 }, { a: 1 })).toBeNull();
  });
});
