import fc from 'fast-check';
import type { z } from 'zod';

/**
 * A fast-check arbitrary of any value a zod schema accepts, read from the schema itself (zod 4's
 * definitions): a property over "every valid domain verdict" then follows the schema as it changes,
 * instead of a hand-written generator that drifts from it. Fields whose meaning the schema does not carry
 * (a share is a fraction 0..1, a time is a parseable date) are given by name in `byKey`. A schema kind
 * this does not know (z.custom, a transform) throws: an arbitrary that silently skips it would test less
 * than it claims.
 */

export type ByKey = Readonly<Record<string, fc.Arbitrary<unknown>>>;

interface Check {
  readonly check: string;
  readonly value?: number;
  readonly inclusive?: boolean;
  readonly format?: string;
  readonly pattern?: RegExp;
  readonly minimum?: number;
  readonly maximum?: number;
}

interface Def {
  readonly type: string;
  readonly checks?: readonly { _zod: { def: Check } }[];
  readonly format?: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly entries?: Readonly<Record<string, string>>;
  readonly values?: readonly unknown[];
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def): Check[] => (def.checks ?? []).map((c) => c._zod.def);

/** Any moment between 2015 and 2035, as the ISO string the service writes. */
export const isoTime = fc
  .date({ min: new Date('2015-01-01T00:00:00Z'), max: new Date('2035-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());
/** A calendar day, as a list's own date (YYYY-MM-DD). */
export const isoDay = isoTime.map((t) => t.slice(0, 10));
/** A fraction 0..1 (a share of a flow). */
export const fraction = fc.double({ min: 0, max: 1, noNaN: true });
/** Any text without lone surrogates (which JSON canonicalization refuses, and no service text holds). */
export const text = fc.string({ unit: 'grapheme', maxLength: 12 });

function numberArbitrary(def: Def): fc.Arbitrary<number> {
  let min: number | undefined;
  let max: number | undefined;
  let integer = false;
  for (const check of checksOf(def)) {
    if (check.check === 'number_format') integer = true;
    if (check.check === 'greater_than') min = check.inclusive ? check.value : (check.value ?? 0) + Number.EPSILON;
    if (check.check === 'less_than') max = check.inclusive ? check.value : (check.value ?? 0) - Number.EPSILON;
  }
  if (integer) return fc.integer({ min: Math.ceil(min ?? -1e9), max: Math.floor(max ?? 1e12) });
  return fc.double({ min: min ?? -1e12, max: max ?? 1e12, noNaN: true, noDefaultInfinity: true });
}

function stringArbitrary(def: Def): fc.Arbitrary<string> {
  if (def.format === 'url') return fc.webUrl();
  if (def.format === 'datetime') return isoTime;
  const checks = checksOf(def);
  const pattern = checks.find((c) => c.check === 'string_format' && c.format === 'regex')?.pattern;
  if (pattern) return fc.stringMatching(pattern);
  const minLength = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
  return fc.string({ unit: 'grapheme', minLength, maxLength: Math.max(12, minLength) });
}

function arrayArbitrary(def: Def, byKey: ByKey): fc.Arbitrary<unknown[]> {
  const minLength = checksOf(def).find((c) => c.check === 'min_length')?.minimum ?? 0;
  return fc.array(arbitraryOf(def.element as z.ZodType, byKey), { minLength, maxLength: minLength + 3 });
}

/** An object: every required key, each optional one present or absent (absent, not `undefined`). */
function objectArbitrary(def: Def, byKey: ByKey): fc.Arbitrary<Record<string, unknown>> {
  const shape = def.shape ?? {};
  const fields = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, byKey[key] ?? arbitraryOf(field, byKey)]));
  const requiredKeys = Object.keys(shape).filter((key) => defOf(shape[key] as z.ZodType).type !== 'optional');
  return fc.record(fields, { requiredKeys });
}

function wrapperArbitrary(def: Def, byKey: ByKey): fc.Arbitrary<unknown> {
  const inner = arbitraryOf(def.innerType as z.ZodType, byKey);
  return def.type === 'nullable' ? fc.option(inner, { nil: null }) : inner;
}

export function arbitraryOf<T extends z.ZodType>(schema: T, byKey: ByKey = {}): fc.Arbitrary<z.infer<T>> {
  const def = defOf(schema);
  const arbitrary: fc.Arbitrary<unknown> = (() => {
    switch (def.type) {
      case 'string':
        return stringArbitrary(def);
      case 'number':
        return numberArbitrary(def);
      case 'boolean':
        return fc.boolean();
      case 'enum':
        return fc.constantFrom(...Object.values(def.entries ?? {}));
      case 'literal':
        return fc.constantFrom(...(def.values ?? []));
      case 'object':
        return objectArbitrary(def, byKey);
      case 'array':
        return arrayArbitrary(def, byKey);
      case 'nullable':
      case 'optional':
        return wrapperArbitrary(def, byKey);
      case 'union':
        return fc.oneof(...(def.options ?? []).map((option) => arbitraryOf(option, byKey)));
      default:
        throw new Error(`no arbitrary for a zod ${def.type}: give it in byKey`);
    }
  })();
  return arbitrary as fc.Arbitrary<z.infer<T>>;
}
