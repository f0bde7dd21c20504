import type { TransferCheckDeps } from '../../commands/kyt/transfer-check-deps.js';
import type { EventStore, Position } from '../../domain/ports/event-store.port.js';
import type { ReadStore } from '../../domain/ports/read-store.port.js';
import { anyCheckSince, checkAddressIndexProcessor, checksOfAddresses } from '../../processors/check-address-index.processor.js';
import type { Processor } from '../../processors/processor.js';
import { retroactiveExposureProcessor } from '../../processors/retroactive-exposure.processor.js';

/** Retroactive exposure's two processors: the index of the addresses of past checks, and the re-evaluation. */
export function retroactiveExposure(deps: {
  config: { readonly SVC_RETROACTIVE_DAYS: number };
  store: EventStore;
  readStore: ReadStore;
  commands: TransferCheckDeps;
  whenProjected: (position: Position | null) => Promise<void>;
}): Processor<unknown>[] {
  return [
    checkAddressIndexProcessor({ readStore: deps.readStore }),
    retroactiveExposureProcessor({
      commands: deps.commands,
      store: deps.store,
      checksOf: checksOfAddresses(deps.readStore),
      anyCheckSince: anyCheckSince(deps.readStore),
      days: deps.config.SVC_RETROACTIVE_DAYS,
      whenProjected: deps.whenProjected,
    }),
  ];
}
