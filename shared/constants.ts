/** Facts both sides rely on. Limits are enforced by the server; clients only mirror them for UX. */
export const OTP_LENGTH = 6;
export const OTP_TTL_SECONDS = 10 * 60;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_COOLDOWN_SECONDS = 60;

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

export const TOAST_DURATION_MS = 5000;

export const BYTES_PER_GB = 1024 ** 3;

/** One day in milliseconds: the one constant every module counts days with. */
export const DAY_MS = 86_400_000;
