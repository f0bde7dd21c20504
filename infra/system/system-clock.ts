import type { Clock } from '../../domain/ports/clock.port.js';

export const systemClock: Clock = { now: () => new Date() };
