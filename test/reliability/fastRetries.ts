/**
 * Shortens the send executor's backoff for tests, so a persistent 429/5xx on a send ends after its
 * retries in milliseconds. The executor reads DELIVERY_DEFAULTS on every run.
 */
import { DELIVERY_DEFAULTS } from '../../nodes/BotSailor/shared/delivery';

DELIVERY_DEFAULTS.baseDelayMs = 1;
DELIVERY_DEFAULTS.maxDelayMs = 4;
