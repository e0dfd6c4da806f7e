import type { I18n } from '@lingui/core';
import { MESSAGES } from '../../../../shared/errors.js';
import { isApiError } from '../../api';
import { CLIENT_ERROR_CODES } from '../../api/api-error';

/** What both steps of the sign-in form (OtpSignInForm's e-mail step, OtpCodeStep) share. */

/**
 * The server's message for a refused request (the server words it in the visitor's language); ours
 * when the request got no answer or no usable one (the client's own English texts in MESSAGES).
 */
export function errorText(error: unknown, fallbackId: string, _: I18n['_']): string {
  if (!isApiError(error)) return _(fallbackId);
  if (error.code === CLIENT_ERROR_CODES.network) return _('login.error.serverUnreachable');
  if (error.code === CLIENT_ERROR_CODES.internal && error.message === MESSAGES.unexpected) return _('login.error.unexpected');
  return error.message || _(fallbackId);
}

export const inputClass =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3.5 py-2.5 text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/40 read-only:bg-slate-50';
export const primaryButtonClass =
  'w-full rounded-lg bg-indigo-600 px-4 py-2.5 font-semibold text-white shadow-sm hover:bg-indigo-700 disabled:cursor-not-allowed disabled:opacity-60';
export const alertClass = 'mb-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800';
