import type { Config } from '../../config.js';
import type { Configured } from '../settings/index.js';
import { defineModule, route } from '../module.js';
import { createPasskeyGate } from './passkey-gate.js';
import { createPasskeysRepo } from './passkeys.repo.js';
import { myPasskeysRoutes, passkeyProofRoutes } from './passkeys.routes.js';
import { createPasskeysService, type RelyingParty } from './passkeys.service.js';

/** The site as the passkey's relying party: PUBLIC_URL's host, answered from PUBLIC_URL's origin (the desktop app loads the same pages). */
export const relyingPartyOf = (config: Pick<Config, 'publicUrl'>): RelyingParty => ({ id: config.publicUrl.hostname, origins: [config.publicUrl.origin] });

/** Passkeys: staff prove one after the e-mailed code (the admin's gate, plugins/staff-passkey.ts) and again before big changes. */
export const passkeysModule = defineModule({
  name: 'passkeys',
  build({ config, db, clock, keys, audit, settings }: Configured) {
    const repo = createPasskeysRepo(db);
    return {
      passkeys: createPasskeysService({ repo, audit, clock, relyingParty: relyingPartyOf(config), hashKey: keys.otp, settings }),
      passkeyGate: createPasskeyGate({ repo, clock, rules: () => settings.getAppSettings() }),
    };
  },
  routes: ({ passkeys }) => [route(myPasskeysRoutes, { passkeys }), route(passkeyProofRoutes, { passkeys })],
});
