import { describe, expect, it } from 'vitest';
import { requireKnownService, unknownServiceIds } from './server-connections.js';

const services = [
  { id: '6f1c2d4e-3b5a-4c7d-8e9f-0a1b2c3d4e5f', name: 'Default-Squad' },
  { id: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d', name: 'Premium' },
  { id: 'VLESS TCP, Reality', name: 'a tag with a comma' },
];

describe('the services a server or a plan names', () => {
  it('several squads or groups, comma-separated, are each checked against the panel’s list', () => {
    expect(unknownServiceIds(services, '6f1c2d4e-3b5a-4c7d-8e9f-0a1b2c3d4e5f, 9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d')).toEqual([]);
    expect(unknownServiceIds(services, '6f1c2d4e-3b5a-4c7d-8e9f-0a1b2c3d4e5f,nope')).toEqual(['nope']);
    expect(() => requireKnownService(services, '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d,6f1c2d4e-3b5a-4c7d-8e9f-0a1b2c3d4e5f')).not.toThrow();
  });

  it('one id that holds a comma is taken whole, and nothing at all is unknown', () => {
    expect(unknownServiceIds(services, 'VLESS TCP, Reality')).toEqual([]);
    expect(unknownServiceIds(services, ' , ')).toEqual([' , ']);
    expect(() => requireKnownService(services, 'missing')).toThrow(/no service with this ID/);
  });
});
