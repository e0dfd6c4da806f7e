import type { WithBilling } from '../billing/index.js';
import { defineModule, route } from '../module.js';
import { createErasureRepo } from './erasure.repo.js';
import { createMyDataExportRepo } from './my-data-export.repo.js';
import { myDataRoutes } from './my-data.routes.js';
import { createMyDataService } from './my-data.service.js';

/**
 * A customer's own data (issue 56): everything held about them as one JSON file, and the deletion of their account
 * (panel users first, personal data erased, payments kept without a name). Built after the modules whose rows it reads.
 */
export const myDataModule = defineModule({
  name: 'my-data',
  build({ db, config, clock, log, keys, mailer, events, accounts, audit, settings }: WithBilling) {
    return {
      myData: createMyDataService({
        exports: createMyDataExportRepo(db),
        erasure: createErasureRepo(db),
        accounts,
        audit,
        settings,
        mailer,
        keys,
        clock,
        log,
        publicUrl: config.publicUrl,
        userChanged: (userId) => events.tell('user.changed', { userId }),
      }),
    };
  },
  routes: ({ myData }) => [route(myDataRoutes, { myData })],
});
