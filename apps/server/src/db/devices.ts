// The one lookup of a device by its row id through an organisation's tree (another
// organisation's device answers 404 exactly like a missing one), and the join to the binding a
// device is mounted by now.
import { and, eq, isNull } from 'drizzle-orm';
import { AppError } from '../lib/errors.ts';
import type { Db } from './client.ts';
import { orgTree } from './list.ts';
import { deviceBindings, devices } from './schema.ts';

/** Join condition: the device's current binding (an unbind ends a binding, never deletes it). */
export const CURRENT_BINDING = and(eq(deviceBindings.deviceRef, devices.id), isNull(deviceBindings.unboundAt));

export async function visibleDevice(db: Db, orgId: string, id: string) {
  const [d] = await db.select({ id: devices.id, orgId: devices.orgId, deviceId: devices.deviceId, name: devices.name }).from(devices).where(eq(devices.id, id));
  if (!d || !(await orgTree(db, orgId)).includes(d.orgId)) throw new AppError(404, 'NOT_FOUND');
  return d;
}
