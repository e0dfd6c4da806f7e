import type { Role } from '../../../shared/auth.js';
import { can, type Permission } from '../../../shared/staff.js';

/**
 * Which permission each admin route needs, by `METHOD pattern` exactly as the route is registered. A route
 * missing here is denied to every role (`server/src/staff-roles.test.ts` fails until it is added), so a new
 * admin route is never open by accident. A function decides from the request where one route does two things.
 */
type Rule = Permission | ((body: unknown) => Permission);

/** Whether a JSON body sets this field (a rule's second look, where one route does two things). */
const sets = (body: unknown, field: string) =>
  typeof body === 'object' && body !== null && field in body && (body as Record<string, unknown>)[field] !== undefined;
const changesRole = (body: unknown) => sets(body, 'role');
/** Requiring staff passkeys and the refund step-up are the owner's: they guard the staff, as roles do. */
const changesStaffSecurity = (body: unknown) => sets(body, 'staffPasskeysRequired') || sets(body, 'refundStepUpAbove');

export const ROUTE_PERMISSIONS: Record<string, Rule> = {
  // Customers and their VPN accounts
  'GET /api/admin/users': 'customers.read',
  'GET /api/admin/users/:id': 'customers.read',
  'PATCH /api/admin/users/:id': (body) => (changesRole(body) ? 'staff.manage' : 'customers.write'),
  'GET /api/admin/staff': 'staff.manage',
  'PUT /api/admin/staff': 'staff.manage',
  'POST /api/admin/users/:id/sign-out': 'customers.write',
  'POST /api/admin/users/:id/send-code': 'customers.write',
  'GET /api/admin/users/:id/wallet': 'customers.read',
  'POST /api/admin/users/:id/wallet': 'payments.write',
  'POST /api/admin/accounts': 'customers.write',
  'DELETE /api/admin/accounts/:id': 'customers.write',
  'GET /api/admin/accounts/:id/devices': 'customers.read',
  'DELETE /api/admin/accounts/:id/devices/:deviceId': 'customers.write',
  'POST /api/admin/accounts/:id/disable': 'customers.write',
  'POST /api/admin/accounts/:id/enable': 'customers.write',
  'POST /api/admin/accounts/:id/extend': 'customers.write',
  'POST /api/admin/accounts/:id/reset-usage': 'customers.write',
  // Money
  'GET /api/admin/transactions': 'payments.read',
  'POST /api/admin/transactions/:id/refund': 'payments.write',
  'GET /api/admin/subscriptions': 'payments.read',
  'POST /api/admin/subscriptions/:id/cancel': 'payments.write',
  'GET /api/admin/payments/accounts': 'payments.read',
  'POST /api/admin/payments/accounts/:id/end-subscriptions': 'payments.write',
  'GET /api/admin/referrals': 'payments.read',
  'POST /api/admin/referrals/:id/release': 'payments.write',
  'POST /api/admin/referrals/:id/void': 'payments.write',
  'GET /api/admin/payments/revenue': 'reports.read',
  'GET /api/admin/overview': 'reports.read',
  // Payment keys: the provider settings are read with the settings, written by the owner alone
  'GET /api/admin/payments/card': 'settings.read',
  'PUT /api/admin/payments/card': 'payment-keys.write',
  'GET /api/admin/payments/crypto': 'settings.read',
  'PUT /api/admin/payments/crypto': 'payment-keys.write',
  'GET /api/admin/payments/cryptopay': 'settings.read',
  'PUT /api/admin/payments/cryptopay': 'payment-keys.write',
  'GET /api/admin/payments/yookassa': 'settings.read',
  'PUT /api/admin/payments/yookassa': 'payment-keys.write',
  // What the store sells
  'GET /api/admin/plans': 'catalogue.read',
  'POST /api/admin/plans': 'catalogue.write',
  'PATCH /api/admin/plans/:id': 'catalogue.write',
  'DELETE /api/admin/plans/:id': 'catalogue.write',
  'GET /api/admin/add-ons': 'catalogue.read',
  'POST /api/admin/add-ons': 'catalogue.write',
  'PATCH /api/admin/add-ons/:id': 'catalogue.write',
  'DELETE /api/admin/add-ons/:id': 'catalogue.write',
  'GET /api/admin/promo-codes': 'catalogue.read',
  'POST /api/admin/promo-codes': 'catalogue.write',
  'PATCH /api/admin/promo-codes/:id': 'catalogue.write',
  'DELETE /api/admin/promo-codes/:id': 'catalogue.write',
  'GET /api/admin/gift-codes': 'catalogue.read',
  'POST /api/admin/gift-codes': 'catalogue.write',
  'GET /api/admin/gift-codes/:id/csv': 'catalogue.write',
  'POST /api/admin/gift-codes/:id/revoke': 'catalogue.write',
  'GET /api/admin/servers': 'catalogue.read',
  'POST /api/admin/servers': 'settings.write',
  'POST /api/admin/servers/test': 'settings.write',
  'PATCH /api/admin/servers/:id': 'settings.write',
  'DELETE /api/admin/servers/:id': 'settings.write',
  'POST /api/admin/servers/:id/disable': 'settings.write',
  'POST /api/admin/servers/:id/enable': 'settings.write',
  'POST /api/admin/servers/:id/import': 'settings.write',
  'GET /api/admin/servers/:id/panel-users': 'settings.read',
  'GET /api/admin/servers/:id/services': 'settings.read',
  // The store's settings and its health
  'GET /api/admin/settings': 'settings.read',
  'PUT /api/admin/settings': (body) => (changesStaffSecurity(body) ? 'staff.manage' : 'settings.write'),
  'GET /api/admin/referrals/settings': 'settings.read',
  'PUT /api/admin/referrals/settings': 'settings.write',
  'GET /api/admin/telegram': 'settings.read',
  'PUT /api/admin/telegram': 'settings.write',
  'GET /api/admin/telegram/broadcasts': 'settings.read',
  'POST /api/admin/telegram/broadcasts': 'settings.write',
  'POST /api/admin/telegram/broadcasts/preview': 'settings.write',
  'POST /api/admin/telegram/broadcasts/:id/cancel': 'settings.write',
  'GET /api/admin/setup': 'settings.read',
  'GET /api/admin/system': 'settings.read',
  'GET /api/admin/logs': 'audit.read',
  'GET /api/admin/audit': 'audit.read',
  'GET /api/admin/audit/export': 'audit.read',
};

/** The permission a registered admin route needs, or undefined when the route is not in the policy. */
export function routePermission(method: string, pattern: string, body?: unknown): Permission | undefined {
  const rule = ROUTE_PERMISSIONS[`${method} ${pattern}`];
  return typeof rule === 'function' ? rule(body) : rule;
}

/** Every permission a route may need (both of a rule's answers), for the OpenAPI document. */
export function routePermissions(method: string, pattern: string): Permission[] {
  const rule = ROUTE_PERMISSIONS[`${method} ${pattern}`];
  if (rule === undefined) return [];
  return typeof rule === 'function' ? [...new Set([rule(undefined), rule({ role: 'user', staffPasskeysRequired: true })])] : [rule];
}

/** The policy every admin request goes through: may this role call this route with this body? */
export function allows(role: Role | undefined, method: string, pattern: string, body?: unknown): boolean {
  return can(role, routePermission(method, pattern, body));
}
