/**
 * What the devices module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { anonymousDevice, readClientDevice, type ClientDevice } from './device-headers.js';
export { createDevicesRepo, type DevicesRepo } from './devices.repo.js';
export { DEVICES_CHANGED_CHANNEL } from './devices.service.js';
