import { describe, expect, it } from 'vitest';
import { adminBannerLine } from './admin-banner.ts';

describe('the start banner names where the administrator password came from', () => {
  it('shows a generated password once', () => {
    expect(adminBannerLine({ adminCreated: true, generatedAdminPassword: 'Xy9-abc#4' }, false)).toBe(
      '  Administrator: admin / Xy9-abc#4   (generated now and shown only once: keep it)',
    );
  });

  it('says ADMIN_PASSWORD set it when this start created the account from it', () => {
    const line = adminBannerLine({ adminCreated: true }, true);
    expect(line).toBe('  Administrator: admin (its password is the one in ADMIN_PASSWORD)');
    expect(line).not.toContain('first start');
  });

  it('on a later start says it was set when the account was created, ADMIN_PASSWORD or not', () => {
    expect(adminBannerLine({ adminCreated: false }, false)).toBe('  Administrator: admin (its password was set at the first start)');
    expect(adminBannerLine({ adminCreated: false }, true)).toBe(
      '  Administrator: admin (its password was set when the account was first created; ADMIN_PASSWORD is read only then)',
    );
  });
});
