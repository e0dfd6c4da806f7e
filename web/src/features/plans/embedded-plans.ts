import type { Plan } from '../../../../shared/plans.js';

/** The element in which the server embeds the plans a page was rendered with. */
export const EMBEDDED_PLANS_ID = 'app-plans';

/** The embedded plans, or undefined on a page that has none (the slot is empty there). */
export function readEmbeddedPlans(): Plan[] | undefined {
  const text = document.getElementById(EMBEDDED_PLANS_ID)?.textContent?.trim();
  if (!text?.startsWith('[')) return undefined;
  try {
    return JSON.parse(text) as Plan[];
  } catch {
    return undefined;
  }
}
