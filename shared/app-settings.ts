import { z } from 'zod';

/** `GET/PUT /api/admin/settings`. */
export interface AdminSettings {
  trialPlanId: string | null;
  brandName: string;
  supportEmail: string;
  /** Days a past_due subscription's account keeps working after its paid period before it is paused. */
  renewalGraceDays: number;
  /** E-mail customers 3 days before a renewal charge (and before a one-off plan ends). */
  renewalReminders: boolean;
}

export const RENEWAL_DEFAULTS = { graceDays: 3, reminders: true, maxGraceDays: 30 } as const;

export const UpdateSettingsBody = z
  .object({
    trialPlanId: z.string().trim().min(1).max(64).nullable(),
    brandName: z.string().trim().min(1, 'Brand name is required').max(60),
    supportEmail: z.string().trim().toLowerCase().pipe(z.email({ error: 'Enter a valid email address' })),
    renewalGraceDays: z
      .number({ error: 'Grace period is a number of days' })
      .int('Grace period is a whole number of days')
      .min(0, 'Grace period cannot be negative')
      .max(RENEWAL_DEFAULTS.maxGraceDays, `Grace period: at most ${RENEWAL_DEFAULTS.maxGraceDays} days`),
    renewalReminders: z.boolean(),
  })
  .partial()
  .strict();
export type UpdateSettingsBody = z.infer<typeof UpdateSettingsBody>;
