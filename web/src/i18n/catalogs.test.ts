import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, LOCALES } from '../../../shared/locales.js';
import { NAMESPACES } from './catalogs';

const DIR = join(import.meta.dirname, 'messages');

/** The admin screens' namespaces: only operators read them. */
const ADMIN_NAMESPACES = new Set(['admin', 'adminSettings']);

const read = (locale: string, namespace: string): Record<string, string> | undefined => {
  try {
    return JSON.parse(readFileSync(join(DIR, locale, `${namespace}.json`), 'utf8')) as Record<string, string>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

/** Variables, tags and plural/select arguments a message uses: a translation must keep them all. */
function placeholders(message: string): string[] {
  const names = new Set<string>();
  for (const match of message.matchAll(/\{\s*([A-Za-z0-9_]+)\s*(?:,|\})/g)) names.add(`{${match[1]}}`);
  for (const match of message.matchAll(/<(\d+)>/g)) names.add(`<${match[1]}>`);
  return [...names].sort();
}

describe('message catalogues', () => {
  it('has a file for every namespace the code names, and no file of a namespace it does not', () => {
    const files = readdirSync(join(DIR, DEFAULT_LOCALE)).map((file) => file.replace(/\.json$/, ''));
    expect(files.sort()).toEqual([...NAMESPACES].filter((ns) => files.includes(ns)).sort());
    for (const locale of LOCALES) {
      for (const file of readdirSync(join(DIR, locale))) expect(NAMESPACES, `${locale}/${file}`).toContain(file.replace(/\.json$/, ''));
    }
  });

  for (const namespace of NAMESPACES) {
    const english = read(DEFAULT_LOCALE, namespace);
    if (!english) continue;
    for (const locale of LOCALES) {
      it(`${locale}/${namespace}: every message is there, valid ICU, with the same variables and tags as the English`, () => {
        const messages = read(locale, namespace);
        expect(messages, `${locale}/${namespace}.json is missing`).toBeDefined();
        if (!messages) return;
        expect(Object.keys(messages).sort()).toEqual(Object.keys(english).sort());
        for (const [id, message] of Object.entries(messages)) {
          expect(id.startsWith(`${namespace}.`) || ['common', 'titles', 'meta', 'content'].includes(namespace), `${id} is named for its namespace`).toBe(true);
          expect(() => compileMessageOrThrow(message), `${locale} ${id}`).not.toThrow();
          expect(placeholders(message), `${locale} ${id}`).toEqual(placeholders(english[id]!));
          if (locale !== DEFAULT_LOCALE) expect(message.trim(), `${locale} ${id} is empty`).not.toBe('');
        }
      });
    }
  }

  // The sign-in page says '6-digit code'; a customer is never told about an 'OTP' (the admin screens may).
  for (const namespace of NAMESPACES.filter((ns) => !ADMIN_NAMESPACES.has(ns))) {
    it(`${namespace}: no language calls the sign-in code an 'OTP'`, () => {
      for (const locale of LOCALES) {
        for (const [id, message] of Object.entries(read(locale, namespace) ?? {})) expect(message, `${locale} ${id}`).not.toMatch(/\bOTP\b/i);
      }
    });
  }
});
