import { randomBytes, randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import {
  PASSKEY_CHALLENGE_TTL_SECONDS,
  PASSKEYS_MAX,
  RECOVERY_CODE_COUNT,
  type MyPasskeys,
  type Passkey,
  type RegisterPasskeyBody,
  type RegisteredPasskey,
  type VerifyPasskeyBody,
} from '../../../../shared/passkeys.js';
import { AppError, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { hmacHex } from '../../lib/crypto.js';
import type { AuditRepo } from '../audit/index.js';
import type { UserProfile } from '../users/index.js';
import type { PasskeyRecord, PasskeysRepo } from './passkeys.repo.js';

/** Who is asking: the signed-in user and the session the proof belongs to. */
export interface PasskeyCaller {
  user: UserProfile;
  sessionId: string;
  ip?: string | null;
}

/** Where the site is (the passkey's relying party): its host name, and the origins a browser may answer from. */
export interface RelyingParty {
  id: string;
  origins: string[];
}

export interface PasskeysDeps {
  repo: PasskeysRepo;
  audit: AuditRepo;
  clock: Clock;
  relyingParty: RelyingParty;
  /** Keys recovery codes' hashes. */
  hashKey: Buffer;
  settings: { getAppSettings(): Promise<{ brandName: string; staffPasskeysRequired: boolean }> };
}

export const passkeyRequired = () => new AppError(403, 'passkey_required', 'Confirm it is you with your passkey (or a recovery code) to continue.');
const passkeyInvalid = (message = 'The passkey could not be checked. Please try again.') => new AppError(400, 'passkey_invalid', message);

const toPasskey = (record: PasskeyRecord): Passkey => ({
  id: record.id,
  name: record.name,
  createdAt: record.createdAt.toISOString(),
  lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
});

const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A recovery code: 16 characters of an alphabet without look-alikes (80 bits), shown in groups of four. */
function newRecoveryCode(): string {
  const chars = [...randomBytes(16)].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** The code as typed: case, spaces and dashes do not matter. */
const normalisedCode = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Checks the browser's answer to the session's challenge against one of the caller's passkeys. */
async function checkAssertion(deps: PasskeysDeps, caller: PasskeyCaller, body: VerifyPasskeyBody): Promise<PasskeyRecord> {
  const { repo, clock, relyingParty } = deps;
  const response = body.credential as unknown as AuthenticationResponseJSON;
  const challenge = await repo.takeChallenge(caller.sessionId, 'verify', clock());
  if (!challenge) throw passkeyInvalid('The passkey request expired or was used already. Please try again.');
  const passkey = await repo.findByCredential(caller.user.id, response.id);
  if (!passkey) throw passkeyInvalid('This passkey is not registered to your account.');
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: relyingParty.origins,
    expectedRPID: relyingParty.id,
    requireUserVerification: false,
    credential: {
      id: passkey.credentialId,
      publicKey: Buffer.from(passkey.publicKey, 'base64url'),
      counter: passkey.counter,
      transports: passkey.transports as AuthenticatorTransportFuture[],
    },
  }).catch(() => ({ verified: false as const, authenticationInfo: undefined }));
  if (!result.verified || !(await repo.recordUse(passkey.id, result.authenticationInfo.newCounter, clock()))) throw passkeyInvalid();
  return passkey;
}

export function createPasskeysService(deps: PasskeysDeps) {
  const { repo, clock, relyingParty } = deps;
  const hashCode = (code: string) => hmacHex(deps.hashKey, `passkey-recovery:${normalisedCode(code)}`);
  const challengeExpiry = () => new Date(clock().getTime() + PASSKEY_CHALLENGE_TTL_SECONDS * 1000);
  const audit = (caller: PasskeyCaller, action: string, targetId: string, details: Record<string, unknown> = {}) =>
    deps.audit.record({
      actorId: caller.user.id,
      actorEmail: caller.user.email,
      action,
      targetType: 'passkey',
      targetId,
      details,
      ip: caller.ip ?? null,
      now: clock(),
    });

  /** With a passkey registered already, changing the set of passkeys needs this session to have proved one. */
  async function assertMayChangePasskeys(caller: PasskeyCaller): Promise<void> {
    if ((await repo.countForUser(caller.user.id)) === 0) return;
    const proof = await repo.sessionProof(caller.sessionId);
    if (!proof.verifiedAt) throw passkeyRequired();
  }

  return {
    async listMine(caller: PasskeyCaller): Promise<MyPasskeys> {
      const [passkeys, proof, recoveryCodesLeft, settings] = await Promise.all([
        repo.listForUser(caller.user.id),
        repo.sessionProof(caller.sessionId),
        repo.countUnusedRecoveryCodes(caller.user.id),
        deps.settings.getAppSettings(),
      ]);
      return { passkeys: passkeys.map(toPasskey), sessionVerified: proof.verifiedAt !== null, recoveryCodesLeft, required: settings.staffPasskeysRequired };
    },

    /** What the browser's `startRegistration` takes; the challenge is kept for this session, a few minutes, once. */
    async registrationOptions(caller: PasskeyCaller): Promise<PublicKeyCredentialCreationOptionsJSON> {
      await assertMayChangePasskeys(caller);
      const existing = await repo.listForUser(caller.user.id);
      if (existing.length >= PASSKEYS_MAX) throw new AppError(409, 'passkey_limit', `At most ${PASSKEYS_MAX} passkeys: delete one first.`);
      const { brandName } = await deps.settings.getAppSettings();
      const options = await generateRegistrationOptions({
        rpName: brandName,
        rpID: relyingParty.id,
        userName: caller.user.email ?? caller.user.id,
        userID: Uint8Array.from(Buffer.from(caller.user.id, 'utf8')),
        attestationType: 'none',
        excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports as AuthenticatorTransportFuture[] })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        timeout: PASSKEY_CHALLENGE_TTL_SECONDS * 1000,
      });
      await repo.saveChallenge(caller.sessionId, options.challenge, 'register', challengeExpiry());
      return options;
    },

    /** Saves the passkey the browser made; the first one comes with recovery codes (shown once) and verifies this session. */
    async register(caller: PasskeyCaller, body: RegisterPasskeyBody): Promise<RegisteredPasskey> {
      await assertMayChangePasskeys(caller);
      const challenge = await repo.takeChallenge(caller.sessionId, 'register', clock());
      if (!challenge) throw passkeyInvalid('The passkey request expired or was used already. Please try again.');
      const result = await verifyRegistrationResponse({
        response: body.credential as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: relyingParty.origins,
        expectedRPID: relyingParty.id,
        requireUserVerification: false,
      }).catch(() => ({ verified: false as const, registrationInfo: undefined }));
      if (!result.verified) throw passkeyInvalid();
      const { credential } = result.registrationInfo;
      const first = (await repo.countForUser(caller.user.id)) === 0;
      const now = clock();
      const record = {
        id: randomUUID(),
        userId: caller.user.id,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name: body.name ?? 'Passkey',
        createdAt: now,
      };
      if (!(await repo.insert(record))) throw passkeyInvalid('This passkey is registered already.');
      await audit(caller, 'passkey.register', record.id, { name: record.name });
      // Making the passkey proved it: this session need not be asked again at once.
      await repo.markVerified(caller.sessionId, now);
      if (!first) return { passkey: toPasskey({ ...record, lastUsedAt: null }) };
      const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await repo.replaceRecoveryCodes(caller.user.id, recoveryCodes.map(hashCode), now);
      return { passkey: toPasskey({ ...record, lastUsedAt: null }), recoveryCodes };
    },

    /** Deletes one of the caller's passkeys (someone else's is not found); with the last one, the recovery codes go too. */
    async remove(caller: PasskeyCaller, id: string): Promise<void> {
      const mine = await repo.listForUser(caller.user.id);
      if (!mine.some((passkey) => passkey.id === id)) throw notFound('Passkey not found');
      await assertMayChangePasskeys(caller);
      if (!(await repo.remove(caller.user.id, id))) throw notFound('Passkey not found');
      if (mine.length === 1) await repo.replaceRecoveryCodes(caller.user.id, [], clock());
      await audit(caller, 'passkey.delete', id);
    },

    /** What the browser's `startAuthentication` takes: the caller's passkeys, a fresh challenge for this session. */
    async authenticationOptions(caller: PasskeyCaller): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const passkeys = await repo.listForUser(caller.user.id);
      if (passkeys.length === 0) throw notFound('You have no passkey yet');
      const options = await generateAuthenticationOptions({
        rpID: relyingParty.id,
        allowCredentials: passkeys.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports as AuthenticatorTransportFuture[] })),
        userVerification: 'preferred',
        timeout: PASSKEY_CHALLENGE_TTL_SECONDS * 1000,
      });
      await repo.saveChallenge(caller.sessionId, options.challenge, 'verify', challengeExpiry());
      return options;
    },

    /** The session proved a passkey: it opens the admin, and a step-up counts from now. */
    async verify(caller: PasskeyCaller, body: VerifyPasskeyBody): Promise<{ verified: true }> {
      const passkey = await checkAssertion(deps, caller, body);
      await repo.markVerified(caller.sessionId, clock());
      await audit(caller, 'passkey.verify', passkey.id);
      return { verified: true };
    },

    /** A recovery code instead of the passkey: each works once. */
    async useRecoveryCode(caller: PasskeyCaller, code: string): Promise<{ verified: true; recoveryCodesLeft: number }> {
      if (!(await repo.spendRecoveryCode(caller.user.id, hashCode(code), clock()))) {
        throw new AppError(400, 'recovery_code_invalid', 'This recovery code is not valid or was used already.');
      }
      await repo.markVerified(caller.sessionId, clock());
      const recoveryCodesLeft = await repo.countUnusedRecoveryCodes(caller.user.id);
      await audit(caller, 'passkey.recovery_code', caller.user.id, { recoveryCodesLeft });
      return { verified: true, recoveryCodesLeft };
    },
  };
}

export type PasskeysService = ReturnType<typeof createPasskeysService>;
