import { PROVIDER_BALANCE_NOTE } from '../../../../shared/referrals.js';
import type { AdminWallet, TopUpBody, TopUpStarted, Wallet, WalletAdjustmentBody, WalletMovement, WalletMovementKind } from '../../../../shared/wallet.js';
import type { Db } from '../../db/knex.js';
import { parseJson } from '../../db/values.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { TopUpCheckout, PaymentDrivers } from '../billing/index.js';
import { RENEWAL_NOTE, type CreditRow, type WalletLedger, type WalletLedgerRepo } from '../credit/index.js';
import type { SettingsService } from '../settings/index.js';
import type { UserProfile, UsersRepo, Actor } from '../users/index.js';

/** How many movements the wallet shows. */
const MOVEMENTS_SHOWN = 50;

/** A ledger row as the customer reads it. */
export function walletKindOf(row: Pick<CreditRow, 'kind' | 'note'>): WalletMovementKind {
  switch (row.kind) {
    case 'earned':
    case 'cancelled':
    case 'reinstated':
      return 'referral';
    case 'spent':
      return row.note === PROVIDER_BALANCE_NOTE || row.note === RENEWAL_NOTE ? 'renewal' : 'purchase';
    case 'restored':
    case 'refund':
      return 'refund';
    default:
      return row.kind;
  }
}

/**
 * The customer's wallet (their one balance: referral rewards, top-ups, refunds paid in, what orders spent) and the
 * admin's view and adjustments of it. Every movement is the ledger's (credit/wallet-ledger.ts); this reads and presents it.
 */
export function createWalletService(deps: {
  db: Db;
  repo: WalletLedgerRepo;
  ledger: WalletLedger;
  settings: SettingsService;
  payments: Pick<PaymentDrivers, 'availableMethods'>;
  topUps: TopUpCheckout;
  users: Pick<UsersRepo, 'findById'>;
  clock: Clock;
}) {
  /** The plan each purchase or renewal paid for, from its order (one query for all the movements shown). */
  async function planNamesOf(rows: CreditRow[]): Promise<Map<string, string>> {
    const ids = [...new Set(rows.filter((row) => row.transactionId && row.kind !== 'earned').map((row) => row.transactionId!))];
    if (ids.length === 0) return new Map();
    const transactions = await deps.db('transactions').whereIn('id', ids).select('id', 'metadata');
    return new Map(transactions.map((row: { id: string; metadata: unknown }) => [row.id, parseJson<{ plan_name?: string }>(row.metadata, {}).plan_name ?? '']));
  }

  async function walletOf(userId: string): Promise<Omit<Wallet, 'topUp'>> {
    const [{ currency }, balances, rows] = await Promise.all([
      deps.settings.getAppSettings(),
      deps.repo.balances(userId, deps.clock()),
      deps.repo.latest(userId, MOVEMENTS_SHOWN),
    ]);
    const plans = await planNamesOf(rows);
    const inCurrency = balances.find((balance) => balance.currency === currency);
    const movements: WalletMovement[] = rows.map((row) => ({
      id: String(row.id),
      kind: walletKindOf(row),
      amount: row.amount,
      currency: row.currency,
      createdAt: row.createdAt.toISOString(),
      availableAt: row.availableAt.toISOString(),
      note: row.memo ?? (row.transactionId ? plans.get(row.transactionId) || null : null),
    }));
    return { currency, balance: inCurrency?.available ?? 0, pending: inCurrency?.pending ?? 0, movements };
  }

  async function adminWallet(userId: string): Promise<AdminWallet> {
    if (!(await deps.users.findById(userId))) throw notFound('User not found');
    return { userId, ...(await walletOf(userId)) };
  }

  return {
    async getWallet(user: UserProfile): Promise<Wallet> {
      const [wallet, { currency, walletTopUps }] = await Promise.all([walletOf(user.id), deps.settings.getAppSettings()]);
      const methods = walletTopUps.enabled ? await deps.payments.availableMethods(currency) : [];
      return { ...wallet, topUp: methods.length > 0 ? { methods, min: walletTopUps.min, max: walletTopUps.max } : null };
    },

    startTopUp: (user: UserProfile, body: TopUpBody): Promise<TopUpStarted> => deps.topUps.start(user, body),

    adminWallet,

    /** An audited adjustment by an admin, in the store's currency (taking out more than the balance is a 409). */
    async adjust(actor: Actor, userId: string, body: WalletAdjustmentBody): Promise<AdminWallet> {
      if (!(await deps.users.findById(userId))) throw notFound('User not found');
      const { currency } = await deps.settings.getAppSettings();
      await deps.db.transaction((trx) => deps.ledger.adjust(userId, { amount: body.amount, currency, memo: body.note }, actor, deps.clock(), trx));
      return adminWallet(userId);
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
