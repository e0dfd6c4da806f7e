import type { Foundation } from '../../records.module.js';
import { defineModule, route } from '../module.js';
import { adminUsersRoutes, meRoutes } from './users.routes.js';
import { createUsersService } from './users.service.js';

/** Customers and admins: the caller's own profile and settings, and the admin's list of them. */
export const usersModule = defineModule({
  name: 'users',
  build({ audit, clock, usersRepo, commitToken, events }: Foundation) {
    const languageChanged = (userId: string, now: Date) => events.emit('user.language-changed', { userId, now });
    return { users: createUsersService({ users: usersRepo, audit, clock, commitToken, languageChanged }) };
  },
  routes: ({ users }) => [route(meRoutes, { users }), route(adminUsersRoutes, { users })],
});
