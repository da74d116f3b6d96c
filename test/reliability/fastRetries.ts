/**
 * Imported before the node: shortens the delivery hook's backoff for tests, so a persistent 429/5xx
 * on a send ends after its retries in milliseconds. Must load before the resources call deliver().
 */
import { DELIVERY_DEFAULTS } from '../../nodes/BotSailor/shared/delivery';

DELIVERY_DEFAULTS.baseDelayMs = 1;
DELIVERY_DEFAULTS.maxDelayMs = 4;
