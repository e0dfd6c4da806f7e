// ---- reading arguments as the server does (every argument is text to it) ----
import { badRequest, required, TelegramError } from './errors.js';
import { type Params, UploadedFile } from './params.js';

/** query->arg(name): '' when absent; a JSON value other than a string is its JSON text; a file part is no argument. */
export function argText(params: Params, name: string): string {
  const value = params[name];
  if (value === undefined || value === null || value instanceof UploadedFile) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** td::to_integer: the leading digits (with a sign), 0 when there are none. */
export function toInteger(text: string): number {
  const match = /^([+-]?)(\d+)/.exec(text);
  return match ? Number(`${match[1]}${match[2]}`) : 0;
}

/** Client::get_integer_arg (Client.cpp:12360-12365): the default when absent, then clamped. */
export function argInt(params: Params, name: string, fallback: number, min = -(2 ** 31), max = 2 ** 31 - 1): number {
  const text = argText(params, name);
  const value = text === '' ? fallback : toInteger(text);
  return Math.min(Math.max(value, min), max);
}

/** Client::to_bool (Client.cpp:9357-9361): "true", "yes" or "1", any case. */
export function argBool(params: Params, name: string): boolean {
  return ['true', 'yes', '1'].includes(argText(params, name).trim().toLowerCase());
}

/** A JSON argument: as sent in a JSON body, or parsed from its text; undefined when absent; `unreadable` otherwise. */
export function argJson(params: Params, name: string, unreadable: () => TelegramError): unknown {
  const value = params[name];
  if (value === undefined || value === null || value === '' || value instanceof UploadedFile) return undefined;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw unreadable();
  }
}

export function requiredArg(params: Params, name: string): string {
  const text = argText(params, name);
  if (text === '') throw required(name);
  return text;
}

/** Client::get_user_id (Client.cpp:12451-12457). */
export function argUserId(params: Params, name: string): number {
  const userId = Math.max(toInteger(argText(params, name)), 0);
  if (userId === 0) throw badRequest(`Invalid ${name} specified`);
  return userId;
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
