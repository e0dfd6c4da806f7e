import { defineModule, route, type Provided } from '../module.js';
import type { referralsModule } from '../referrals/index.js';
import type { Configured } from '../settings/index.js';
import { authRoutes } from './auth.routes.js';
import { createAuthService } from './auth.service.js';
import { createOtpRepo } from './otp.repo.js';

/** Signing in with a code sent by e-mail: codes, sessions, refresh and sign-out (a referral code joins at sign-up). */
export const authModule = defineModule({
  name: 'auth',
  build({
    config,
    db,
    keys,
    clock,
    mailer,
    log,
    usersRepo: users,
    sessions,
    audit,
    settings,
    referrals,
    signAccessToken,
    metrics,
  }: Configured & Provided<typeof referralsModule>) {
    return {
      auth: createAuthService({
        config,
        keys,
        clock,
        mailer,
        log,
        users,
        sessions,
        audit,
        settings,
        otp: createOtpRepo(db),
        signAccessToken,
        referrals,
        metrics,
      }),
    };
  },
  routes: ({ auth, limits, settings, secureCookies }) => [route(authRoutes, { auth, limits, settings, secureCookies })],
});
