/**
 * Add-ons (issue 55): what the operator sells on top of a plan without changing it: more devices (the account's
 * device limit) or more traffic (its data limit on the panel), for the rest of the paid period or for as long as
 * the account lives, to the plans it names. Types and request schemas of its HTTP contract.
 */
import { z } from 'zod';
import { SITE_PAYMENT_METHODS } from './billing-schemas.js';
import { DEVICE_LIMIT_MAX } from './devices.js';
import type { TranslatedLocale } from './plan-translations.js';
import { perLanguage } from './translations-schema.js';

export const ADD_ON_KINDS = ['devices', 'traffic'] as const;
/** `devices`: `amount` more devices may use the account; `traffic`: `amount` more bytes of data on its panel. */
export type AddOnKind = (typeof ADD_ON_KINDS)[number];
export const ADD_ON_UNTILS = ['period_end', 'forever'] as const;
/** `period_end`: until the end of the period paid when it was bought; `forever`: as long as the account lives. */
export type AddOnUntil = (typeof ADD_ON_UNTILS)[number];
export const ADD_ON_STATUSES = ['active', 'disabled'] as const;
export type AddOnStatus = (typeof ADD_ON_STATUSES)[number];

/** An add-on's name in another language (falls back to the English one). */
export type AddOnTranslations = Partial<Record<TranslatedLocale, { name: string }>>;

/** `GET /api/admin/add-ons`: an add-on as the operator defines it (price in minor units of the store's currency). */
export interface AddOn {
  id: string;
  name: string;
  kind: AddOnKind;
  /** Devices, or bytes of traffic. */
  amount: number;
  price: number;
  translations: AddOnTranslations;
  /** The plans whose accounts may buy it; null: every plan. */
  appliesTo: string[] | null;
  until: AddOnUntil;
  status: AddOnStatus;
  createdAt: string;
}

/** An add-on an account has, as its customer sees it. */
export interface AccountAddOn {
  id: string;
  name: string;
  kind: AddOnKind;
  amount: number;
  until: AddOnUntil;
  /** When a `period_end` add-on stops counting (null: `forever`). */
  endsAt: string | null;
  createdAt: string;
}

/** `GET /api/accounts/:id/add-ons`: what the account can buy now, and what it has. */
export interface AccountAddOns {
  offered: Array<Pick<AddOn, 'id' | 'name' | 'kind' | 'amount' | 'price' | 'until' | 'translations'>>;
  active: AccountAddOn[];
}

const MB = 1024 ** 2;
const TB = 1024 ** 4;

const NameTranslation = z
  .object(
    { name: z.string({ error: 'A translated name is text' }).trim().min(1, 'A translated name cannot be empty').max(120) },
    { error: 'A language has a name' },
  )
  .strict();

const fields = {
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(120, 'Name: at most 120 characters'),
  kind: z.enum(ADD_ON_KINDS, { error: 'Kind is "devices" or "traffic"' }),
  amount: z.number({ error: 'Amount is a number' }).int('Amount is a whole number').positive('Amount must be more than 0'),
  price: z
    .number({ error: 'Price is required' })
    .int("Price is a whole number of the store currency's minor units")
    .min(1, 'Price must be more than 0')
    .max(10_000_000),
  translations: perLanguage(NameTranslation, 'Translations are an object of languages (ru, fa, zh-CN)'),
  appliesTo: z.array(z.string().trim().min(1).max(64), { error: 'appliesTo is a list of plan ids, or null for every plan' }).max(200).nullable(),
  until: z.enum(ADD_ON_UNTILS, { error: 'Until is "period_end" or "forever"' }),
  status: z.enum(ADD_ON_STATUSES, { error: 'Status is "active" or "disabled"' }),
};

/** Devices: 1 to the device limit's maximum; traffic: 1 MB to 100 TB. */
function checkAmount(body: { kind?: AddOnKind; amount?: number }, ctx: z.RefinementCtx) {
  if (body.amount === undefined || body.kind === undefined) return;
  if (body.kind === 'devices' && body.amount > DEVICE_LIMIT_MAX)
    ctx.addIssue({ code: 'custom', path: ['amount'], message: `Devices: at most ${DEVICE_LIMIT_MAX}` });
  if (body.kind === 'traffic' && (body.amount < MB || body.amount > 100 * TB))
    ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Traffic: from 1 MB to 100 TB, in bytes' });
}

/** `POST /api/admin/add-ons`. */
export const AddOnBody = z
  .object({
    ...fields,
    translations: fields.translations.default({}),
    appliesTo: fields.appliesTo.default(null),
    until: fields.until.default('period_end'),
    status: fields.status.default('active'),
  })
  .strict()
  .superRefine(checkAmount);
export type AddOnBody = z.infer<typeof AddOnBody>;

/** `PATCH /api/admin/add-ons/:id`: the fields it names (kind and amount together, if either changes). */
export const AddOnPatchBody = z
  .object(fields)
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'Send at least one field')
  .superRefine(checkAmount);
export type AddOnPatchBody = z.infer<typeof AddOnPatchBody>;

/** `POST /api/accounts/:id/add-ons`: card when `method` is omitted. */
export const BuyAddOnBody = z
  .object({
    addOnId: z.string({ error: 'Choose an add-on' }).trim().min(1, 'Choose an add-on').max(64),
    method: z.enum(SITE_PAYMENT_METHODS, { error: 'The payment method is "card", "crypto", "yookassa", "cryptopay" or "wallet"' }).optional(),
  })
  .strict();
export type BuyAddOnBody = z.infer<typeof BuyAddOnBody>;

export const ADD_ON_MESSAGES = {
  notFound: 'Add-on not found',
  notForPlan: "This add-on is not sold for this account's plan.",
  notRunning: 'This account has no paid time left to add to: renew it first.',
  unlimited: 'This account has no limit of that kind to raise.',
  inUse: 'Accounts have this add-on: switch it off instead of deleting it.',
} as const;
