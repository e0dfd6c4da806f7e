/**
 * What the passkeys module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { type passkeysModule } from './passkeys.module.js';
export { type PasskeyGate } from './passkey-gate.js';
