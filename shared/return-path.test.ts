import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path.js';

describe('safeReturnPath', () => {
  it.each(['/dashboard', '/dashboard?plan=abc-123', '/pricing#faq', '/a/b?x=1&y=2', '/%0a'])('keeps the site path %s', (path) => {
    expect(safeReturnPath(path, '/dashboard')).toBe(path);
  });

  it.each([
    null,
    undefined,
    '',
    'dashboard',
    'https://evil.example/x',
    '//evil.example/x',
    '/\\evil.example',
    '/\t/evil.example',
    'javascript:alert(1)',
    ' /dashboard',
    `/${'a'.repeat(2001)}`,
  ])('refuses %j and gives the fallback', (raw) => {
    expect(safeReturnPath(raw, '/dashboard')).toBe('/dashboard');
  });
});
