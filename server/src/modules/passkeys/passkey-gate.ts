import { isStaff } from '../../../../shared/auth.js';
import { STEP_UP_WINDOW_SECONDS } from '../../../../shared/passkeys.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { UserProfile } from '../users/index.js';
import type { PasskeysRepo } from './passkeys.repo.js';
import { passkeyRequired } from './passkeys.service.js';

/** The store's passkey rules, as its settings say. */
export interface PasskeyRules {
  staffPasskeysRequired: boolean;
  /** Minor units of `currency`; 0 = a refund never asks again. */
  refundStepUpAbove: number;
  currency: string;
}

const passkeySetupRequired = () =>
  new AppError(403, 'passkey_setup_required', 'The store requires a passkey for staff: add one to your account to open the admin.');
const stepUpRequired = () => new AppError(403, 'step_up_required', 'Confirm it is you with your passkey again to make this change.');

/**
 * The admin's door for staff, and the step-up before changes that move money or power. A customer is never asked;
 * a staff member without a passkey is asked only when the owner requires passkeys (then to add one).
 */
export function createPasskeyGate(deps: { repo: PasskeysRepo; clock: Clock; rules(): Promise<PasskeyRules> }) {
  /** Throws unless the staff member's session may use the admin; answers what it read (for a step-up). */
  async function checkAdmin(user: UserProfile, sessionId: string) {
    const [state, rules] = await Promise.all([deps.repo.gateState(user.id, sessionId), deps.rules()]);
    if (!state.hasPasskey) {
      if (rules.staffPasskeysRequired) throw passkeySetupRequired();
      return { state, rules };
    }
    if (!state.verifiedAt) throw passkeyRequired();
    return { state, rules };
  }

  async function requireStepUp(user: UserProfile, sessionId: string): Promise<void> {
    if (!isStaff(user.role)) return;
    const { state } = await checkAdmin(user, sessionId);
    // Without a passkey (and none required) there is nothing to ask for: the e-mailed code is all this person has.
    if (!state.hasPasskey) return;
    const recent = state.stepUpAt && deps.clock().getTime() - state.stepUpAt.getTime() <= STEP_UP_WINDOW_SECONDS * 1000;
    if (!recent) throw stepUpRequired();
  }

  return {
    /** For every admin route: nothing for a customer (the route's own role check answers them). */
    async checkAdminRequest(user: UserProfile, sessionId: string): Promise<void> {
      if (isStaff(user.role)) await checkAdmin(user, sessionId);
    },

    /** 403 `step_up_required` unless the staff member proved their passkey in the last STEP_UP_WINDOW_SECONDS. */
    requireStepUp,

    /** A refund over the store's threshold (or in another currency, while a threshold is set) asks for the step-up. */
    async requireRefundStepUp(user: UserProfile, sessionId: string, refund: { amount: number; currency: string }): Promise<void> {
      const rules = await deps.rules();
      if (rules.refundStepUpAbove <= 0) return;
      if (refund.currency.toLowerCase() === rules.currency && refund.amount <= rules.refundStepUpAbove) return;
      await requireStepUp(user, sessionId);
    },
  };
}

export type PasskeyGate = ReturnType<typeof createPasskeyGate>;
