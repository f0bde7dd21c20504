import { familyOf } from '../domain/shared/streams.js';

/**
 * Every stream family has one topic, keyed by stream id so that a stream's events keep their order:
 * `check-1234` → topic `events.check`, key `check-1234`.
 */
export const TOPIC_PREFIX = 'events.';

export const topicOfStream = (streamId: string): string => TOPIC_PREFIX + familyOf(streamId);

export const topicOfFamily = (family: string): string => TOPIC_PREFIX + family;

/** The stream family a topic relays, or null for a topic of another kind (a processor's own retries). */
export const familyOfTopic = (topic: string): string | null => (topic.startsWith(TOPIC_PREFIX) ? topic.slice(TOPIC_PREFIX.length) : null);
