import { describe, expect, it } from 'vitest';
import { hasPermission } from './permissions.ts';

describe('what the signed-in user may do', () => {
  it('grants the listed actions only', () => {
    const user = { isPlatformAdmin: false, permissions: ['user:read', 'user:write'] };
    expect(hasPermission(user, 'user:write')).toBe(true);
    expect(hasPermission(user, 'role:write')).toBe(false);
  });

  it('a platform administrator may do everything', () => {
    expect(hasPermission({ isPlatformAdmin: true, permissions: [] }, 'org:write')).toBe(true);
  });

  it('nobody signed in, or a user info without the list, may do nothing', () => {
    expect(hasPermission(undefined, 'org:read')).toBe(false);
    expect(hasPermission({ isPlatformAdmin: false }, 'org:read')).toBe(false);
  });
});
