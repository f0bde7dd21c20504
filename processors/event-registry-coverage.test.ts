import { describe, expect, it } from 'vitest';
import { eventRegistry } from '../domain/events/registry.js';
import { WEBHOOK_EVENT_RAISED, WEBHOOK_SOURCE_FAMILIES } from '../domain/webhooks/webhook-raised.js';
import { PROJECTIONS } from '../infra/bootstrap.js';
import { createRunningJobsIndex } from '../projections/running-jobs.index.js';
import { createIntelIndex } from '../projections/intel-index.js';
import { createInspectCompletions } from '../projections/inspect-completions.js';
import { createAddressCheckProcessors } from './address-check/address-check.processors.js';
import { alertCaseProcessor } from './alert-case.processor.js';
import { createExploreProcessor } from './explore.processor.js';
import { createInspectProcessor } from './inspect/inspect.processor.js';
import { monitorReevaluationProcessor } from './monitor-reevaluation.processor.js';
import { checkAddressIndexProcessor } from './check-address-index.processor.js';
import { retroactiveExposureProcessor } from './retroactive-exposure.processor.js';
import type { Processor } from './processor.js';
import { familyOfTopic } from './topics.js';
import { transferCheckProcessor } from './transfer-check.processor.js';
import { attemptTopic, webhookDeliveryProcessor } from './webhook-delivery.processor.js';
import { webhookFanOutProcessor } from './webhook-fanout.processor.js';

/**
 * Every name a read model or a pipeline subscribes to is one the registry knows: a typo or a renamed
 * event would otherwise fold nothing, silently. The processors are built with no dependencies: only
 * their names and topics are read here, never their handlers.
 */
const none = {} as never;
const processors: Processor<unknown>[] = [
  ...createAddressCheckProcessors(none),
  alertCaseProcessor(none),
  createExploreProcessor(none),
  createInspectProcessor({ providers: [], providerTimeoutMs: 1 }),
  monitorReevaluationProcessor(none),
  checkAddressIndexProcessor(none),
  retroactiveExposureProcessor(none),
  transferCheckProcessor(none, { concurrency: 1 } as never),
  webhookDeliveryProcessor(none),
  webhookFanOutProcessor(none),
] as Processor<unknown>[];

/** The delivery processor's delayed retries: topics it feeds itself, not event-store families. */
const ownRetryTopics = new Set(Array.from({ length: 20 }, (_, i) => attemptTopic(i + 1)));

describe('the event registry covers every subscriber', () => {
  it('every projection handles registered types only', () => {
    expect(PROJECTIONS.length).toBeGreaterThan(10);
    for (const projection of PROJECTIONS) {
      for (const type of projection.handles) expect(eventRegistry.isRegistered(type), `${projection.name} handles ${type}`).toBe(true);
    }
  });

  it('every in-process index handles registered types only', () => {
    for (const sink of [createRunningJobsIndex(), createIntelIndex(), createInspectCompletions()]) {
      for (const type of sink.handles) expect(eventRegistry.isRegistered(type), type).toBe(true);
    }
  });

  it('every processor topic is the topic of a registered stream family (or a processor’s own retry topic)', () => {
    const topics = processors.flatMap((processor) => processor.topics.map((topic) => ({ processor: processor.name, topic })));
    expect(topics.length).toBeGreaterThan(8);
    for (const { processor, topic } of topics) {
      if (ownRetryTopics.has(topic)) continue;
      const family = familyOfTopic(topic);
      expect(family !== null && eventRegistry.families.includes(family), `${processor} reads ${topic}`).toBe(true);
    }
  });

  it('the webhook fan-out reads exactly the families whose streams carry WebhookEventRaised', () => {
    expect(eventRegistry.isRegistered(WEBHOOK_EVENT_RAISED)).toBe(true);
    for (const family of WEBHOOK_SOURCE_FAMILIES) expect(eventRegistry.families).toContain(family);
  });
});
