import type { RegisteredPasskey } from '../../../../shared/passkeys.js';
import { passkeyApi } from '../../api/passkey-endpoints';

/** The browser's WebAuthn library, loaded only when a passkey is made or used (it stays out of every page's first download). */
const webauthn = () => import('@simplewebauthn/browser');

/** Whether this browser can make and use passkeys at all. */
export async function passkeysSupported(): Promise<boolean> {
  return (await webauthn()).browserSupportsWebAuthn();
}

/** Asks the browser (and its authenticator) for a new passkey and saves it: the first one comes with recovery codes. */
export async function addPasskey(name?: string): Promise<RegisteredPasskey> {
  const { startRegistration } = await webauthn();
  const options = await passkeyApi.registrationOptions();
  const credential = await startRegistration({ optionsJSON: options as never });
  return passkeyApi.register(credential, name);
}

/** Asks the authenticator to prove one of the person's passkeys for this session. */
export async function provePasskey(): Promise<void> {
  const { startAuthentication } = await webauthn();
  const options = await passkeyApi.authenticationOptions();
  const credential = await startAuthentication({ optionsJSON: options });
  await passkeyApi.verify(credential);
}

/** A passkey prompt the person closed or that timed out (the browser's NotAllowedError): not an error to show. */
export const wasCancelled = (error: unknown) => error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
