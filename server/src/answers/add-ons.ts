import { z } from 'zod';
import { ADD_ON_KINDS, ADD_ON_STATUSES, ADD_ON_UNTILS, type AccountAddOns, type AddOn } from '../../../shared/add-ons.js';

/** What the add-on routes answer, each checked against the shared type the service returns. */

const Translations = z.object({
  ru: z.object({ name: z.string() }).optional(),
  fa: z.object({ name: z.string() }).optional(),
  'zh-CN': z.object({ name: z.string() }).optional(),
});

export const AddOnAnswer = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(ADD_ON_KINDS),
  amount: z.number().int(),
  price: z.number().int(),
  translations: Translations,
  appliesTo: z.array(z.string()).nullable(),
  until: z.enum(ADD_ON_UNTILS),
  status: z.enum(ADD_ON_STATUSES),
  createdAt: z.string(),
}) satisfies z.ZodType<AddOn>;

export const AddOnListAnswer = z.array(AddOnAnswer);

export const AccountAddOnsAnswer = z.object({
  offered: z.array(AddOnAnswer.pick({ id: true, name: true, kind: true, amount: true, price: true, until: true, translations: true })),
  active: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      kind: z.enum(ADD_ON_KINDS),
      amount: z.number().int(),
      until: z.enum(ADD_ON_UNTILS),
      endsAt: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
}) satisfies z.ZodType<AccountAddOns>;
