import { AsyncLocalStorage } from 'node:async_hooks';
import type { Correlation, CorrelationScope } from '../../domain/ports/correlation.port.js';

/** The CorrelationScope port on AsyncLocalStorage: the correlation follows every await and callback of `work`. */
export function createAsyncCorrelation(): CorrelationScope {
  const storage = new AsyncLocalStorage<Correlation>();
  return {
    current: () => storage.getStore(),
    run: (correlation, work) => storage.run(correlation, work),
  };
}
