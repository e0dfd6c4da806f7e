import { z } from 'zod';

/**
 * Moving in (issue 24): the users a panel already has, linked to customers here by e-mail. Nothing on the
 * panel changes; the customer signs in by code and finds the account with its real expiry and usage.
 */

/** The most rows one import takes (a larger file is sent in several). */
export const IMPORT_MAX_ROWS = 1000;
export const PANEL_USERS_PAGE_MAX = 100;

export type PanelUserStatus = 'active' | 'disabled' | 'limited' | 'expired' | 'on_hold';

/** One user on the panel, as `GET /api/admin/servers/:id/panel-users` lists it. */
export interface PanelUserRow {
  username: string;
  status: PanelUserStatus;
  expiresAt: string | null;
  usedTrafficBytes: number;
  /** null = unlimited. */
  dataLimitBytes: number | null;
  /** An account here already holds this panel user. */
  linked: boolean;
}

/** One page of the panel's own list; with `unlinked=true` the linked users are left out of it, so a page may be short. */
export interface PanelUsersPage {
  users: PanelUserRow[];
  page: number;
  size: number;
  /** Users on the panel in all. */
  total: number;
  hasMore: boolean;
}

export const PanelUsersQuery = z.object({
  page: z.coerce.number({ error: 'page is a number' }).int('page is a whole number').min(1, 'page starts at 1').max(100_000).default(1),
  size: z.coerce
    .number({ error: 'size is a number' })
    .int('size is a whole number')
    .min(1)
    .max(PANEL_USERS_PAGE_MAX, `size: at most ${PANEL_USERS_PAGE_MAX}`)
    .default(50),
  unlinked: z
    .enum(['true', 'false'], { error: "unlinked is 'true' or 'false'" })
    .default('false')
    .transform((value) => value === 'true'),
});
export type PanelUsersQuery = z.infer<typeof PanelUsersQuery>;

/** Rows are checked one by one on the server (each gets its own message); here only their shape. */
export const ImportPanelUsersBody = z.object({
  links: z
    .array(z.object({ username: z.string({ error: 'username is text' }).max(200), email: z.string({ error: 'email is text' }).max(320) }), {
      error: 'links is a list of {username, email}',
    })
    .min(1, 'Add at least one user to import')
    .max(IMPORT_MAX_ROWS, `At most ${IMPORT_MAX_ROWS} users per import`),
  /** The plan imported accounts renew as (its price and period); none: they cannot be renewed by card. */
  planId: z.string().trim().min(1).max(64).nullable().optional(),
});
export type ImportPanelUsersBody = z.infer<typeof ImportPanelUsersBody>;

/** A row that cannot be imported, and why (1-based, as in the CSV without its header). */
export interface ImportRowProblem {
  row: number;
  username: string;
  email: string;
  message: string;
}

export interface ImportedAccount {
  username: string;
  email: string;
  accountId: string;
  /** The e-mail had no customer here: one was made. */
  newCustomer: boolean;
}

/** `POST /api/admin/servers/:id/import` → 201. */
export interface ImportResult {
  imported: ImportedAccount[];
}
