import { z } from 'zod';
import type { ImportedAccount, ImportResult, PanelUserRow, PanelUsersPage } from '../../../shared/panel-import.js';

/**
 * What the panel-import routes answer: a page of a panel's own users (each marked linked or not) and the accounts an
 * import made, checked against the shared types. Traffic is in bytes as the panel reports it; times are ISO strings.
 */

/** One user on the panel. */
const PanelUserRowAnswer = z.object({
  username: z.string(),
  status: z.enum(['active', 'disabled', 'limited', 'expired', 'on_hold']),
  expiresAt: z.string().nullable(),
  usedTrafficBytes: z.number(),
  /** null = unlimited. */
  dataLimitBytes: z.number().nullable(),
  linked: z.boolean(),
}) satisfies z.ZodType<PanelUserRow>;

/** `GET /api/admin/servers/:id/panel-users`: one page of the panel's list. */
export const PanelUsersPageAnswer = z.object({
  users: z.array(PanelUserRowAnswer),
  page: z.number().int(),
  size: z.number().int(),
  total: z.number().int(),
  hasMore: z.boolean(),
}) satisfies z.ZodType<PanelUsersPage>;

const ImportedAccountAnswer = z.object({
  username: z.string(),
  email: z.string(),
  accountId: z.string(),
  newCustomer: z.boolean(),
}) satisfies z.ZodType<ImportedAccount>;

/** `POST /api/admin/servers/:id/import` → 201: the accounts made, one per row. */
export const ImportResultAnswer = z.object({ imported: z.array(ImportedAccountAnswer) }) satisfies z.ZodType<ImportResult>;
