/** Request fields several endpoints share, checked as YooKassa checks them. */
import { invalidParameter, invalidRequest } from './http.js';

export const METADATA_MAX_KEYS = 16;
export const METADATA_KEY_MAX_LENGTH = 32;
export const METADATA_VALUE_MAX_LENGTH = 512;

/** A JSON object field, or undefined when absent or null. */
export function optionalObject(value: unknown, parameter: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParameter(parameter);
  return value as Record<string, unknown>;
}

/** A boolean; the docs' own curl example sends `"save_payment_method": "true"`, so the strings count too. */
export function optionalBoolean(value: unknown, parameter: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw invalidParameter(parameter);
}

/** A string of at most `max` characters; longer is "Description is too long" for descriptions, as YooKassa words it. */
export function optionalString(value: unknown, parameter: string, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidParameter(parameter);
  if (value.length > max) {
    throw parameter === 'description' ? invalidRequest(`Description is too long. Max. length is ${max}`, parameter) : invalidParameter(parameter);
  }
  return value;
}

/**
 * `metadata`: at most 16 keys, names up to 32 characters, string values up to 512. A value that is not a
 * string (a nested object, say) is refused naming `metadata.<key>`, as a real answer did.
 */
export function parseMetadata(value: unknown): Record<string, string> | undefined {
  const metadata = optionalObject(value, 'metadata');
  if (!metadata) return undefined;
  const entries = Object.entries(metadata);
  if (entries.length > METADATA_MAX_KEYS) throw invalidRequest(`Metadata object is limited to ${METADATA_MAX_KEYS} keys`, 'metadata');
  for (const [key, item] of entries) {
    if (key.length > METADATA_KEY_MAX_LENGTH) {
      throw invalidRequest(`The key names length in metadata object is limited to ${METADATA_KEY_MAX_LENGTH} characters`, 'metadata');
    }
    if (typeof item !== 'string') throw invalidParameter(`metadata.${key}`);
    if (item.length > METADATA_VALUE_MAX_LENGTH) {
      throw invalidRequest(`The key values length in metadata object is limited to ${METADATA_VALUE_MAX_LENGTH} characters`, `metadata.${key}`);
    }
  }
  return { ...(metadata as Record<string, string>) };
}
