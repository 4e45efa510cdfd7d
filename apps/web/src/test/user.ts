// A signed-in user for component tests: an operator of one organisation with the given actions.
import type { UserInfo } from '@iotc/shared/auth';

export function testUser(permissions: string[], fields: Partial<UserInfo> = {}): UserInfo {
  return {
    id: 'u1',
    account: 'operator',
    name: 'Operator',
    orgId: 'o',
    orgName: 'Demo Logistics',
    email: null,
    phone: null,
    roles: ['r'],
    permissions,
    isPlatformAdmin: false,
    mustChangePassword: false,
    ...fields,
  };
}
