import { describe, expect, it } from 'vitest';
import { greenfieldUrl } from './btcpay-http.js';

describe('joining a Greenfield path to the BTCPay Server address', () => {
  it('keeps the server’s own path prefix and the path’s query', () => {
    expect(greenfieldUrl('https://btcpay.example.com', '/api/v1/stores/S1')).toBe('https://btcpay.example.com/api/v1/stores/S1');
    expect(greenfieldUrl('https://example.com/btcpay/', '/api/v1/stores/S1/invoices?take=5')).toBe(
      'https://example.com/btcpay/api/v1/stores/S1/invoices?take=5',
    );
  });

  it('never lets a query or fragment of the address swallow the path (the key would go with it)', () => {
    expect(greenfieldUrl('https://btcpay.example.com/?next=https://evil.example', '/api/v1/stores/S1')).toBe('https://btcpay.example.com/api/v1/stores/S1');
    expect(greenfieldUrl('https://btcpay.example.com/#x', '/api/v1/stores/S1')).toBe('https://btcpay.example.com/api/v1/stores/S1');
  });
});
