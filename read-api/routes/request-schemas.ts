import { z } from 'zod';
import { addressField, networkField } from '../schemas/common.js';

/** Request shapes of the V2 API. Length limits are the spec's; finer rules are checked in the handlers. */
export const addressBody = z.strictObject({
  address: addressField,
  network: networkField,
});

export const usageQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  since: z.iso
    .date()
    .or(z.iso.datetime({ offset: true }))
    .optional(),
  /** Rows created before this time (a date: before that day's start, UTC), for a date range with `since`. */
  until: z.iso
    .date()
    .or(z.iso.datetime({ offset: true }))
    .optional(),
});

export const idempotencyHeader = z.looseObject({
  'idempotency-key': z.string().min(1).max(64).optional(),
});
