// The administrator's line of the start banner: the password when it was generated now (shown
// once), else where it came from: ADMIN_PASSWORD when this start created the account with it,
// or the start that created the account, ADMIN_PASSWORD being read only then.
import type { SeedResult } from '../db/seed.ts';

export function adminBannerLine(seed: Pick<SeedResult, 'adminCreated' | 'generatedAdminPassword'>, adminPasswordSet: boolean): string {
  if (seed.generatedAdminPassword) return `  Administrator: admin / ${seed.generatedAdminPassword}   (generated now and shown only once: keep it)`;
  if (seed.adminCreated) return '  Administrator: admin (its password is the one in ADMIN_PASSWORD)';
  if (adminPasswordSet) return '  Administrator: admin (its password was set when the account was first created; ADMIN_PASSWORD is read only then)';
  return '  Administrator: admin (its password was set at the first start)';
}
