import type { Keyring } from '../session-store.js';

/** An in-memory keychain for tests: `entries` maps `service\naccount` to the password. */
export interface FakeKeyring extends Keyring {
  entries: Map<string, string>;
  /** The password stored for `account` under `service`, if any. */
  read(service: string, account: string): string | undefined;
  /** While set, every call fails as a locked or missing keychain would. */
  failWith: Error | null;
}

export function createFakeKeyring(): FakeKeyring {
  const entries = new Map<string, string>();
  const key = (service: string, account: string) => `${service}\n${account}`;
  const keyring: FakeKeyring = {
    entries,
    failWith: null,
    read: (service, account) => entries.get(key(service, account)),
    async getPassword(service, account) {
      if (keyring.failWith) throw keyring.failWith;
      return entries.get(key(service, account)) ?? null;
    },
    async setPassword(service, account, password) {
      if (keyring.failWith) throw keyring.failWith;
      entries.set(key(service, account), password);
    },
    async deletePassword(service, account) {
      if (keyring.failWith) throw keyring.failWith;
      return entries.delete(key(service, account));
    },
  };
  return keyring;
}
