// What the signed-in user may do: the actions their roles grant (userinfo `permissions`; a
// platform administrator has every action). Screens hide the write controls a user lacks; the
// server checks every call anyway.
import { useCallback } from 'react';
import type { UserInfo } from '@iotc/shared/auth';
import type { Permission } from '@iotc/shared/platform';
import { useInfo } from '../api/info.ts';

export type PermissionHolder = Pick<UserInfo, 'isPlatformAdmin'> & { permissions?: readonly string[] | null };

export function hasPermission(user: PermissionHolder | undefined, permission: Permission): boolean {
  if (!user) return false;
  // A userinfo saved by an older server has no permissions list: it grants nothing here.
  return user.isPlatformAdmin || (user.permissions ?? []).includes(permission);
}

/** `can('user:write')`, re-rendering when the user info arrives or changes. */
export function usePermission(): (permission: Permission) => boolean {
  const { data: user } = useInfo();
  return useCallback((permission: Permission) => hasPermission(user, permission), [user]);
}
