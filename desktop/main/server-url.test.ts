import { describe, expect, it } from 'vitest';
import { normaliseServerUrl } from './server-url.js';

describe('server URL', () => {
  it.each([
    ['https://vpn.example.com', 'https://vpn.example.com'],
    ['  https://VPN.Example.com/  ', 'https://vpn.example.com'],
    ['https://vpn.example.com:8443', 'https://vpn.example.com:8443'],
    ['https://vpn.example.com:443/', 'https://vpn.example.com'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
  ])('accepts %s as %s', (input, origin) => {
    expect(normaliseServerUrl(input)).toEqual({ ok: true, serverUrl: origin });
  });

  it.each([
    ['not a URL', 'vpn.example.com'],
    ['empty', ''],
    ['http to another host', 'http://vpn.example.com'],
    ['http to a LAN address', 'http://192.168.1.10:3000'],
    ['javascript:', 'javascript:alert(1)'],
    ['file:', 'file:///etc/passwd'],
    ['ftp:', 'ftp://vpn.example.com'],
    ['credentials', 'https://admin:secret@vpn.example.com'],
    ['a user name', 'https://admin@vpn.example.com'],
    ['a path', 'https://vpn.example.com/app'],
    ['a query', 'https://vpn.example.com/?x=1'],
    ['an empty query', 'https://vpn.example.com/?'],
    ['a fragment', 'https://vpn.example.com/#x'],
    ['too long', `https://${'a'.repeat(2100)}.example`],
  ])('refuses %s with a message', (_what, input) => {
    expect(normaliseServerUrl(input)).toEqual({ ok: false, message: expect.any(String) });
  });
});
