import type { Route } from '../route';
import { messagingRoutes } from './messaging';
import { userRoutes } from './user';

/** Every endpoint of the spec, grouped as the spec groups them. */
export const allRoutes: Route[] = [...userRoutes, ...messagingRoutes];
