import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/knex.js';
import { toDate, toDateOrNull } from '../../db/values.js';

export interface PasskeyRecord {
  id: string;
  userId: string;
  /** base64url, as WebAuthn names it. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export type ChallengeKind = 'register' | 'verify';

/** What a session proved: when it last verified a passkey (or a recovery code) and when last for a step-up. */
export interface SessionProof {
  verifiedAt: Date | null;
  stepUpAt: Date | null;
}

const COLUMNS = ['id', 'user_id', 'credential_id', 'public_key', 'counter', 'transports', 'name', 'created_at', 'last_used_at'];

function toRecord(row: Record<string, unknown>): PasskeyRecord {
  return {
    id: row.id as string,
    userId: row.user_id as string,
    credentialId: row.credential_id as string,
    publicKey: row.public_key as string,
    counter: Number(row.counter),
    transports: ((row.transports as string | null) ?? '').split(',').filter((transport) => transport !== ''),
    name: row.name as string,
    createdAt: toDate(row.created_at),
    lastUsedAt: toDateOrNull(row.last_used_at),
  };
}

export function createPasskeysRepo(db: Db) {
  /** The session's row, made when first needed (a session without one has proved nothing). */
  const upsertSession = (sessionId: string, values: Record<string, unknown>) =>
    db('session_passkeys')
      .insert({ session_id: sessionId, ...values })
      .onConflict('session_id')
      .merge(Object.keys(values));

  return {
    async listForUser(userId: string): Promise<PasskeyRecord[]> {
      const rows = await db('passkeys')
        .select(COLUMNS)
        .where({ user_id: userId })
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
      return rows.map(toRecord);
    },

    async countForUser(userId: string): Promise<number> {
      return Number((await db('passkeys').where({ user_id: userId }).count({ n: '*' }).first())?.n ?? 0);
    },

    /** The user's passkey with this credential id (someone else's is not found). */
    async findByCredential(userId: string, credentialId: string): Promise<PasskeyRecord | undefined> {
      const row = await db('passkeys').select(COLUMNS).where({ user_id: userId, credential_id: credentialId }).first();
      return row ? toRecord(row) : undefined;
    },

    /** Saves a passkey; false when that credential is registered already (to anyone). */
    async insert(passkey: Omit<PasskeyRecord, 'lastUsedAt'>): Promise<boolean> {
      const inserted = await db('passkeys')
        .insert({
          id: passkey.id,
          user_id: passkey.userId,
          credential_id: passkey.credentialId,
          public_key: passkey.publicKey,
          counter: passkey.counter,
          transports: passkey.transports.join(','),
          name: passkey.name,
          created_at: passkey.createdAt,
        })
        .onConflict('credential_id')
        .ignore()
        .returning('id');
      return inserted.length > 0;
    },

    /** A signature was checked: the authenticator's counter moves only forward (a cloned key's older one does not). */
    async recordUse(id: string, counter: number, now: Date): Promise<boolean> {
      const query = db('passkeys').where({ id });
      if (counter > 0) query.where('counter', '<', counter);
      return (await query.update({ counter, last_used_at: now })) === 1;
    },

    /** Deletes the user's passkey; false when there is none of theirs with that id. */
    async remove(userId: string, id: string): Promise<boolean> {
      return (await db('passkeys').where({ id, user_id: userId }).delete()) > 0;
    },

    /** Replaces the user's recovery codes with these hashes. */
    async replaceRecoveryCodes(userId: string, hashes: string[], now: Date): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('passkey_recovery_codes').where({ user_id: userId }).delete();
        if (hashes.length === 0) return;
        await trx('passkey_recovery_codes').insert(hashes.map((hash) => ({ id: randomUUID(), user_id: userId, code_hash: hash, created_at: now })));
      });
    },

    async countUnusedRecoveryCodes(userId: string): Promise<number> {
      return Number((await db('passkey_recovery_codes').where({ user_id: userId }).whereNull('used_at').count({ n: '*' }).first())?.n ?? 0);
    },

    /** Spends the user's unused code with this hash: true only for the one request that spent it. */
    async spendRecoveryCode(userId: string, hash: string, now: Date): Promise<boolean> {
      return (await db('passkey_recovery_codes').where({ user_id: userId, code_hash: hash }).whereNull('used_at').update({ used_at: now })) === 1;
    },

    /** Hands the session a new challenge (the one before it can no longer be answered). */
    async saveChallenge(sessionId: string, challenge: string, kind: ChallengeKind, expiresAt: Date): Promise<void> {
      await upsertSession(sessionId, { challenge, challenge_kind: kind, challenge_expires_at: expiresAt });
    },

    /** Takes the session's challenge of this kind if it is still valid: a second take (a replay) finds nothing. */
    async takeChallenge(sessionId: string, kind: ChallengeKind, now: Date): Promise<string | undefined> {
      const row = await db('session_passkeys').select('challenge', 'challenge_kind', 'challenge_expires_at').where({ session_id: sessionId }).first();
      if (!row?.challenge || row.challenge_kind !== kind || toDate(row.challenge_expires_at) <= now) return undefined;
      const taken = await db('session_passkeys')
        .where({ session_id: sessionId, challenge: row.challenge })
        .update({ challenge: null, challenge_kind: null, challenge_expires_at: null });
      return taken === 1 ? (row.challenge as string) : undefined;
    },

    /** The session proved a passkey (or a recovery code) now: it is verified, and a step-up counts from now. */
    async markVerified(sessionId: string, now: Date): Promise<void> {
      await upsertSession(sessionId, { verified_at: now, step_up_at: now });
    },

    async sessionProof(sessionId: string): Promise<SessionProof> {
      const row = await db('session_passkeys').select('verified_at', 'step_up_at').where({ session_id: sessionId }).first();
      return { verifiedAt: toDateOrNull(row?.verified_at), stepUpAt: toDateOrNull(row?.step_up_at) };
    },

    /** What the admin's gate reads on each staff request, in one query: the session's proof and whether the user has a passkey. */
    async gateState(userId: string, sessionId: string): Promise<SessionProof & { hasPasskey: boolean }> {
      const row = await db('sessions as s')
        .leftJoin('session_passkeys as p', 'p.session_id', 's.id')
        .select('p.verified_at', 'p.step_up_at', db.raw('exists (select 1 from passkeys k where k.user_id = ?) as has_passkey', [userId]))
        .where('s.id', sessionId)
        .first();
      return {
        verifiedAt: toDateOrNull(row?.verified_at),
        stepUpAt: toDateOrNull(row?.step_up_at),
        hasPasskey: Boolean(row?.has_passkey) && row?.has_passkey !== '0',
      };
    },
  };
}

export type PasskeysRepo = ReturnType<typeof createPasskeysRepo>;
