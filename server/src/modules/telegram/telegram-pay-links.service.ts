import { LOCALE_PREFIX, type Locale } from '../../../../shared/locales.js';
import { unauthenticated } from '../../errors.js';
import { addSeconds, type Clock } from '../../lib/clock.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import type { AuditRepo } from '../audit/index.js';
import type { authModule, RequestMeta } from '../auth/index.js';
import type { Provided } from '../module.js';
import type { UserProfile, UsersRepo } from '../users/index.js';
import type { PayLinkTarget, TelegramPayLinksRepo } from './telegram-pay-links.repo.js';

type AuthService = Provided<typeof authModule>['auth'];
type IssuedTokens = Awaited<ReturnType<AuthService['signIn']>>;

/** How long a payment link from the bot stays good: long enough to pay, short enough not to be kept (as a linking link). */
export const PAY_LINK_TTL_SECONDS = 15 * 60;

export interface TelegramPayLinksDeps {
  links: TelegramPayLinksRepo;
  auth: Pick<AuthService, 'signIn'>;
  users: Pick<UsersRepo, 'findById'>;
  audit: AuditRepo;
  publicUrl: URL;
  clock: Clock;
}

/** Unknown, used, expired, or its customer gone: the same answer, so a guess learns nothing. */
const refused = () => unauthenticated('This payment link has expired or was already used. Open the bot again for a new one.');

/**
 * Paying on the site from the bot: a linked customer gets a one-time link (`PUBLIC_URL/<locale>/pay/<token>`, kept
 * only as its hash, good once for 15 minutes) that signs them in on the site, in their language, and opens the
 * site's checkout for a plan or for the renewal of one of their accounts. The bot decides what a link may be for
 * (a plan on sale, the customer's own account: bot-site-checkout.ts); this mints and redeems it.
 */
export function createTelegramPayLinks(deps: TelegramPayLinksDeps) {
  return {
    /** A new payment link for the customer, in `locale` (the language the bot writes to them in). */
    async createPayLink(user: UserProfile, target: PayLinkTarget, locale: Locale): Promise<{ url: string; expiresAt: Date }> {
      const token = randomToken(24);
      const now = deps.clock();
      const expiresAt = addSeconds(now, PAY_LINK_TTL_SECONDS);
      await deps.links.insert({ tokenHash: sha256Hex(token), userId: user.id, target, expiresAt, now });
      return { url: new URL(`${LOCALE_PREFIX[locale]}/pay/${token}`, deps.publicUrl).href, expiresAt };
    },

    /**
     * Uses the link once: its customer gets a web session, as an e-mail code gives (audited as a sign-in by payment
     * link), and the answer names what the checkout is for. 401 for a link unknown, used, expired or whose customer is gone.
     */
    async signIn(token: string, meta: RequestMeta): Promise<{ user: UserProfile; tokens: IssuedTokens; target: PayLinkTarget }> {
      const now = deps.clock();
      const link = await deps.links.redeem(sha256Hex(token), now);
      const user = link ? await deps.users.findById(link.userId) : undefined;
      if (!link || !user) throw refused();
      const tokens = await deps.auth.signIn(user, 'web', meta, now, { by: 'telegram_pay_link', ...link.target });
      return { user, tokens, target: link.target };
    },
  };
}

export type TelegramPayLinks = ReturnType<typeof createTelegramPayLinks>;
