import type { Plan } from '../../../../shared/plans.js';

/**
 * Feature lines that promise unlimited devices, in the languages of the site: the seeded plans carry
 * 'Unlimited devices on one subscription link', and an operator may have written (or translated) it
 * their own way. A plan with a device limit must not show them.
 */
const UNLIMITED_DEVICE_CLAIMS: readonly RegExp[] = [
  /\bunlimited\s+(?:simultaneous\s+|number\s+of\s+)?devices?\b/i,
  /\b(?:any|an\s+unlimited)\s+number\s+of\s+devices\b/i,
  /\bno\s+(?:device\s+limit|limit\s+on\s+(?:the\s+number\s+of\s+)?devices)\b/i,
  /(?:безлимитн|неограниченн)\S*\s+(?:(?:числ|количеств)\S*\s+)?устройств/i,
  /любое\s+(?:число|количество)\s+устройств/i,
  /без\s+ограничени\S*\s+(?:по\s+)?(?:(?:числу|количеству)\s+)?устройств/i,
  /دستگاه(?:\u200c|\s)?(?:های|ها)?\s+(?:نامحدود|بی‌نهایت|بی\s?نهایت)/,
  /تعداد\s+نامحدود(?:ی)?\s+(?:از\s+)?دستگاه/,
  /(?:无限|不限)(?:制)?(?:数量)?(?:的)?(?:台)?(?:设备|裝置|装置)/,
  /(?:设备|裝置|装置)(?:数量|數量)?(?:无限|不限|無限)/,
];

/** Whether a feature line promises unlimited devices (in English, Russian, Persian or Chinese). */
export function claimsUnlimitedDevices(line: string): boolean {
  return UNLIMITED_DEVICE_CLAIMS.some((claim) => claim.test(line));
}

/**
 * The lines a plan's card lists: its own features as written when it has no device limit; with one,
 * every line promising unlimited devices is dropped and `limitLine` ('Up to 3 devices') stands where the
 * first of them stood, or first when there was none.
 */
export function planFeatureLines(plan: Pick<Plan, 'features' | 'deviceLimit'>, limitLine: (limit: number) => string): string[] {
  // `??`: a plan from a server that predates device limits has no such field, and is unlimited.
  const limit = plan.deviceLimit ?? null;
  if (limit === null) return [...plan.features];
  const at = plan.features.findIndex(claimsUnlimitedDevices);
  const kept = plan.features.filter((line) => !claimsUnlimitedDevices(line));
  const position = at === -1 ? 0 : at;
  return [...kept.slice(0, position), limitLine(limit), ...kept.slice(position)];
}
