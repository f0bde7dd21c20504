/**
 * Every stream family has one topic, keyed by stream id so that a stream's events keep their order:
 * `check-1234` → topic `events.check`, key `check-1234`.
 */
export const TOPIC_PREFIX = 'events.';

export const topicOfStream = (streamId: string): string => TOPIC_PREFIX + (streamId.split('-', 1)[0] ?? streamId);

export const topicOfFamily = (family: string): string => TOPIC_PREFIX + family;
