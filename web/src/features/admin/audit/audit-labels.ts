/**
 * What the admin reads for an audit action: a name in their language for the actions the catalogue knows, else the
 * action itself (`admin.servers.test`), so a new action is never hidden.
 */
const ACTION_LABEL_IDS: Record<string, string> = {
  'auth.sign_in': 'admin.audit.action.signIn',
  'auth.sign_up': 'admin.audit.action.signUp',
  'auth.sign_out_all': 'admin.audit.action.signOutAll',
  'auth.sign_out_others': 'admin.audit.action.signOutOthers',
  'auth.code_locked': 'admin.audit.action.codeLocked',
  'user.sign_out_all': 'admin.audit.action.staffSignOutAll',
  'user.update': 'admin.audit.action.userUpdate',
  'user.role': 'admin.audit.action.roleChange',
  'user.sign_in_code_sent': 'admin.audit.action.codeSent',
  'user.email_added': 'admin.audit.action.emailAdded',
  'user.erased': 'admin.audit.action.erased',
  'telegram.linked': 'admin.audit.action.telegramLinked',
  'telegram.unlinked': 'admin.audit.action.telegramUnlinked',
  'payments.refund': 'admin.audit.action.refund',
  'payments.refund_by_hand': 'admin.audit.action.refund',
  'payments.refund_to_wallet': 'admin.audit.action.refundToWallet',
  'payments.refund_by_provider': 'admin.audit.action.refundByProvider',
  'payments.refund_undeliverable': 'admin.audit.action.refund',
  'account.device_remove': 'admin.audit.action.deviceRemoved',
  'account.device_remove_own': 'admin.audit.action.deviceRemovedOwn',
  'account.extend': 'admin.audit.action.accountExtend',
  'plan.create': 'admin.audit.action.planCreate',
  'plan.update': 'admin.audit.action.planUpdate',
  'plan.delete': 'admin.audit.action.planDelete',
  'settings.update': 'admin.audit.action.settingsUpdate',
};

/** Action prefixes offered in the filter (any other prefix may be typed). */
export const ACTION_PREFIXES = ['auth.', 'user.', 'plan.', 'payments.', 'account.', 'settings.', 'telegram.', 'admin.'] as const;

/** The message id naming `action`, or undefined when the catalogue has none (show the action itself). */
export const auditActionLabelId = (action: string): string | undefined =>
  // `user.role.<role>`: the command line's role changes before staff roles (recorded as `user.role` since).
  ACTION_LABEL_IDS[action] ?? (action.startsWith('user.role.') ? 'admin.audit.action.roleChange' : undefined);

export interface AuditChange {
  field: string;
  before: string;
  after: string;
}

const shown = (value: unknown): string => (value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

/** A staff change's fields as `before → after` (from `details.before` and `details.after`); empty when it has none. */
export function auditChanges(details: Record<string, unknown>): AuditChange[] {
  const before = (typeof details.before === 'object' && details.before) || {};
  const after = (typeof details.after === 'object' && details.after) || {};
  if (!('before' in details) && !('after' in details)) return [];
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields.map((field) => ({
    field,
    before: shown((before as Record<string, unknown>)[field]),
    after: shown((after as Record<string, unknown>)[field]),
  }));
}

/** The other details, one `key: value` each (what changed, the route and the device are shown apart). */
export function auditFacts(details: Record<string, unknown>): Array<[string, string]> {
  return Object.entries(details)
    .filter(([key]) => key !== 'before' && key !== 'after')
    .map(([key, value]) => [key, shown(value)]);
}
