import { z } from 'zod';

/** `GET/PUT /api/admin/settings`. */
export interface AdminSettings {
  trialPlanId: string | null;
  brandName: string;
  supportEmail: string;
}

export const UpdateSettingsBody = z
  .object({
    trialPlanId: z.string().trim().min(1).max(64).nullable(),
    brandName: z.string().trim().min(1, 'Brand name is required').max(60),
    supportEmail: z.string().trim().toLowerCase().pipe(z.email({ error: 'Enter a valid email address' })),
  })
  .partial()
  .strict();
export type UpdateSettingsBody = z.infer<typeof UpdateSettingsBody>;
