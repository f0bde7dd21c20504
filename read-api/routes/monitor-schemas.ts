import { z } from 'zod';
import { addressField, networkField } from '../schemas/common.js';

/** Request and response shapes of /v2/monitors (docs/api.md, "Monitors"); in the OpenAPI document through the routes. */
export const MAX_BULK_MONITORS = 1000;

export const monitorEntry = z.strictObject({
  address: addressField,
  network: networkField,
  reference: z.string().min(1).max(200).nullish(),
});

export const bulkMonitorBody = z.strictObject({ monitors: z.array(z.looseObject({})).min(1).max(MAX_BULK_MONITORS) });

export const monitorParams = z.strictObject({ id: z.string().min(1).max(100) });

export const monitorListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
