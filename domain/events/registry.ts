import { accountEventSchemas, accountStreams } from '../accounts/account.events.js';
import { emailClaimEventSchemas, emailClaimStreams } from '../accounts/email-claim.events.js';
import { addressCheckEventSchemas, checkStreams } from '../address-check/address-check.events.js';
import { checkCompletedV1toV2, checkCompletedV2toV3 } from '../address-check/check-completed.upcast.js';
import { tierCompletedV1toV2 } from '../address-check/tier-completed.upcast.js';
import { providerAnsweredV1toV2 } from '../inspect/provider-answered.upcast.js';
import { chargedV1toV2, chargedV2toV3 } from '../ledger/charged.upcast.js';
import { alertCaseEventSchemas, alertCaseStreams } from '../alerts/alert-case.events.js';
import { alertCaseOpenedV1toV2 } from '../alerts/alert-case-opened.upcast.js';
import { apiKeyEventSchemas, apiKeyStreams } from '../apikeys/api-key.events.js';
import { exploreCompletedV1toV2 } from '../explore/explore-completed.upcast.js';
import { exploreEventSchemas, exploreStreams } from '../explore/explore.events.js';
import { resultDeliveredV1toV2 } from '../ledger/charged-billing.upcast.js';
import { idempotencyEventSchemas, idempotencyStreams } from '../idempotency/idempotency.events.js';
import { outcomeStoredV1toV2, responseStoredV1Schema, upcastResponseStored } from '../idempotency/idempotency.upcast.js';
import { inspectKeyEventSchemas, inspectKeyStreams } from '../inspect/inspect-key.decider.js';
import { inspectEventSchemas, inspectStreams } from '../inspect/inspect.events.js';
import { keyProvidersEventSchemas, keyProvidersStreams } from '../inspect/key-providers.decider.js';
import { curationEventSchemas, curationStreams } from '../intel/curation.events.js';
import { datasetEventSchemas, datasetStreams } from '../intel/dataset.events.js';
import { kytSettingsEventSchemas, kytSettingsStreams } from '../kyt/kyt-settings.decider.js';
import { transferCheckEventSchemas, transferCheckStreams } from '../kyt/transfer-check.events.js';
import { transferCheckCompletedV1toV2 } from '../kyt/transfer-check-completed.upcast.js';
import { transferCheckReevaluatedV1toV2 } from '../kyt/transfer-check-reevaluated.upcast.js';
import { policyBookEventSchemas, policyBookStreams } from '../policies/policy-book.events.js';
import { ledgerEventSchemas, ledgerStreams } from '../ledger/ledger.events.js';
import { monitorEventSchemas, monitorStreams } from '../monitors/monitor.events.js';
import { monitorCreatedV1toV2, monitorVerdictChangedV1toV2, monitorVerdictChangedV2toV3 } from '../monitors/monitor.upcast.js';
import { projectionRebuildEventSchemas, projectionRebuildStreams } from '../projections/projection-rebuild.events.js';
import { sessionEventSchemas, sessionStreams } from '../sessions/session.events.js';
import { defineEventRegistry, type SchemaMap } from '../shared/event-registry.js';
import { webhookDeliveryEventSchemas, deliveryStreams } from '../webhooks/webhook-delivery.events.js';
import { WEBHOOK_EVENT_RAISED, webhookEventRaisedSchema } from '../webhooks/webhook-raised.js';
import { webhookStreams, webhookSubscriptionEventSchemas } from '../webhooks/webhook-subscription.events.js';
import { paidSubjectEventSchemas, paidSubjectStreams } from '../x402/paid-subject.events.js';
import { paymentEventSchemas, paymentStreams } from '../x402/payment.events.js';

/** A family's schemas without `WebhookEventRaised`, which the registry holds once for every emitter. */
function withoutRaised<Schemas extends SchemaMap>(schemas: Schemas): Omit<Schemas, typeof WEBHOOK_EVENT_RAISED> {
  const { [WEBHOOK_EVENT_RAISED]: _raised, ...own } = schemas;
  return own;
}

/**
 * Every event type the service writes: its schema, the stream families it is appended to and the
 * history of its shape. Readers go through it (the executor's load, projections, processors), so an
 * event written by older code is upcast before anyone sees it.
 */
export const eventRegistry = defineEventRegistry(
  [
    { streams: [accountStreams], schemas: accountEventSchemas },
    { streams: [emailClaimStreams], schemas: emailClaimEventSchemas },
    { streams: [apiKeyStreams], schemas: apiKeyEventSchemas },
    { streams: [sessionStreams], schemas: sessionEventSchemas },
    { streams: [ledgerStreams], schemas: ledgerEventSchemas },
    { streams: [idempotencyStreams], schemas: idempotencyEventSchemas },
    { streams: [checkStreams], schemas: withoutRaised(addressCheckEventSchemas) },
    { streams: [exploreStreams], schemas: withoutRaised(exploreEventSchemas) },
    { streams: [transferCheckStreams], schemas: withoutRaised(transferCheckEventSchemas) },
    { streams: [monitorStreams], schemas: withoutRaised(monitorEventSchemas) },
    // The webhook fan-out's contract (webhook-raised.ts): appended beside the fact it reports.
    {
      streams: [checkStreams, exploreStreams, transferCheckStreams, monitorStreams],
      schemas: { [WEBHOOK_EVENT_RAISED]: webhookEventRaisedSchema },
    },
    { streams: [alertCaseStreams], schemas: alertCaseEventSchemas },
    { streams: [kytSettingsStreams], schemas: kytSettingsEventSchemas },
    { streams: [policyBookStreams], schemas: policyBookEventSchemas },
    { streams: [inspectStreams], schemas: inspectEventSchemas },
    { streams: [inspectKeyStreams], schemas: inspectKeyEventSchemas },
    { streams: [keyProvidersStreams], schemas: keyProvidersEventSchemas },
    { streams: [datasetStreams], schemas: datasetEventSchemas },
    { streams: [curationStreams], schemas: curationEventSchemas },
    { streams: [webhookStreams], schemas: webhookSubscriptionEventSchemas },
    { streams: [deliveryStreams], schemas: webhookDeliveryEventSchemas },
    { streams: [paymentStreams], schemas: paymentEventSchemas },
    { streams: [paidSubjectStreams], schemas: paidSubjectEventSchemas },
    { streams: [projectionRebuildStreams], schemas: projectionRebuildEventSchemas },
  ],
  {
    // A change of shape bumps `current` and adds the upcaster from the version before. Every other type is
    // at version 1 so far.
    versions: {
      // Version 1 stored the full check's response body; version 2 its domain verdict; version 3 with the
      // address's own intelligence in the screen's domain shapes (version 2 kept the body's words).
      CheckCompleted: { current: 3, upcasters: { 1: checkCompletedV1toV2, 2: checkCompletedV2toV3 } },
      // Version 1 kept tier 0's sanctions match and tier 1's screen verdict in the body's words; version 2 the domain's.
      TierCompleted: { current: 2, upcasters: { 1: tierCompletedV1toV2 } },
      // Version 1 kept the own engine's answer (an inspect's) in the screen body's words; version 2 its domain verdict.
      ProviderAnswered: { current: 2, upcasters: { 1: providerAnsweredV1toV2 } },
      // Version 1 stored the explore job's response body; version 2 its domain report.
      ExploreCompleted: { current: 2, upcasters: { 1: exploreCompletedV1toV2 } },
      // Version 1 kept a light screen's wire summary and compact JWS; version 2 the domain summary and the receipt
      // detached; version 3 only what the charge does not state of the receipt, when that gives it back.
      Charged: { current: 3, upcasters: { 1: chargedV1toV2, 2: chargedV2toV3 } },
      // Version 1 stored the transfer check's response body; version 2 its domain verdict.
      TransferCheckCompleted: { current: 2, upcasters: { 1: transferCheckCompletedV1toV2 } },
      // Version 1 stored the response's billing object; version 2 the charge (micro-USD, units).
      CheckResultDelivered: { current: 2, upcasters: { 1: resultDeliveredV1toV2 } },
      ExploreResultDelivered: { current: 2, upcasters: { 1: resultDeliveredV1toV2 } },
      // Version 1 outcomes carried the response's billing object; version 2 the charge.
      IdempotentOutcomeStored: { current: 2, upcasters: { 1: outcomeStoredV1toV2 } },
      // Version 1 recorded a monitor's verdicts and data versions in the API's words; version 2 the domain facts.
      MonitorCreated: { current: 2, upcasters: { 1: monitorCreatedV1toV2 } },
      // Version 2 kept the change reasons in the webhook's words (`changed_at`); version 3 the domain fact.
      MonitorVerdictChanged: { current: 3, upcasters: { 1: monitorVerdictChangedV1toV2, 2: monitorVerdictChangedV2toV3 } },
      // Version 1 kept the intelligence change's reasons in the webhook's words; version 2 the domain fact.
      TransferCheckReevaluated: { current: 2, upcasters: { 1: transferCheckReevaluatedV1toV2 } },
      AlertCaseOpened: { current: 2, upcasters: { 1: alertCaseOpenedV1toV2 } },
    },
    // Types no longer written, read as their successor: a key's stored HTTP response (before outcomes).
    retired: {
      IdempotentResponseStored: { becomes: 'IdempotentOutcomeStored', schema: responseStoredV1Schema, upcast: upcastResponseStored },
    },
  },
);

/** Any registered event as recorded, its data in the current shape. */
export type RegisteredEvent = NonNullable<ReturnType<typeof eventRegistry.parse>>;
export type EventType = RegisteredEvent['type'];
/** A recorded event of one (or some) of the registered types. */
export type EventOf<Type extends EventType> = Extract<RegisteredEvent, { type: Type }>;
/** The data of a registered type, in its current shape. */
export type EventDataOf<Type extends EventType> = EventOf<Type>['data'];
