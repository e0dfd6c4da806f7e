import { z } from 'zod';
import { MeSchema, type DesktopVerifyResponse, type RefreshResponse, type SessionResponse, type TokenPair, type VerifyResponse } from '../../../shared/auth.js';

/**
 * What the sign-in routes answer, as the serializer sends them and the OpenAPI document describes them: the web
 * app gets its tokens as cookies and only the user (or the access token's lifetime) in the body; the desktop app
 * gets the tokens in the body.
 */

/** `POST /api/auth/otp`: the code is on its way (the same answer whether or not the address has an account). */
export const OtpSentAnswer = z.object({ sent: z.literal(true) });

/** The desktop app's tokens; `expiresIn`: seconds until the access token expires. */
export const TokenPairAnswer = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.number().int(),
}) satisfies z.ZodType<TokenPair>;

/** `POST /api/auth/verify`: the user, and for the desktop app (`client: "desktop"`) its tokens too. */
export const VerifiedAnswer = z.union([TokenPairAnswer.extend({ user: MeSchema }), z.object({ user: MeSchema })]) satisfies z.ZodType<
  DesktopVerifyResponse | VerifyResponse
>;

/** `POST /api/auth/refresh`: new tokens when the refresh token came in the body (the desktop app), else only their lifetime (the cookies are set). */
export const RefreshedAnswer = z.union([TokenPairAnswer, z.object({ expiresIn: z.number().int() })]) satisfies z.ZodType<RefreshResponse>;

/** `GET /api/auth/session`: who is signed in, if anyone. */
export const SessionAnswer = z.object({ user: MeSchema.nullable() }) satisfies z.ZodType<SessionResponse>;
