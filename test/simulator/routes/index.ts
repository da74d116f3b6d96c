import type { Route } from '../route';
import { catalogRoutes } from './catalog';
import { messagingRoutes } from './messaging';
import { labelRoutes, subscriberRoutes } from './subscriber';
import { userRoutes } from './user';

/** Every endpoint of the spec, grouped as the spec groups them. */
export const allRoutes: Route[] = [
	...userRoutes,
	...messagingRoutes,
	...subscriberRoutes,
	...labelRoutes,
	...catalogRoutes,
];
