/**
 * The panel behind the suite's accounts, in a process of its own (so the load generator does not slow its
 * answers): the fake Marzneshin with the seed's users (panel-users.ts). Reports `{ port }` over IPC once
 * listening.
 */
import { startFakeMarzneshin } from '../../test/fake-panels/marzneshin.js';
import { PANEL_ADMIN, SeededUsers } from './panel-users.js';

const panel = await startFakeMarzneshin({ admin: PANEL_ADMIN });
panel.users = new SeededUsers();
process.send!({ port: Number(new URL(panel.url).port) });
process.once('SIGTERM', () => void panel.close().finally(() => process.exit(0)));
