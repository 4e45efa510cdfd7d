// The device registry: devices of the caller's organisation tree, created with a secret that
// is shown once (the device authenticates its reports with it) and kept only as a hash.
import { randomBytes } from 'node:crypto';
import { and, count, eq, ilike, or } from 'drizzle-orm';
import type { Page } from '@iotc/shared/envelope';
import type { DeviceCreateBody, DeviceQuery, DeviceRow, DeviceUpdateBody, DeviceWithSecret } from '@iotc/shared/device';
import type { Db } from '../../db/client.ts';
import { containsPattern, inOrgs, limitOffset, orderBy, orgTree, type Sortable } from '../../db/list.ts';
import { devices, orgs } from '../../db/schema.ts';
import type { ClientMeta } from '../../plugins/auth.ts';
import { AppError } from '../../plugins/errors.ts';
import { hashSecret } from '../../ingest/pipeline.ts';
import type { Caller } from '../auth/service.ts';
import type { AuditEntry } from '../audit/repo.ts';

const SORTABLE: Sortable = { deviceId: devices.deviceId, name: devices.name, createdAt: devices.createdAt, lastSeenAt: devices.lastSeenAt };

const fields = {
  id: devices.id,
  deviceId: devices.deviceId,
  name: devices.name,
  model: devices.model,
  protocol: devices.protocol,
  sim: devices.sim,
  firmware: devices.firmware,
  orgId: devices.orgId,
  orgName: orgs.name,
  createdAt: devices.createdAt,
  lastSeenAt: devices.lastSeenAt,
};

type Selected = Omit<DeviceRow, 'createdAt' | 'lastSeenAt'> & { createdAt: Date; lastSeenAt: Date | null };
const toRow = (r: Selected): DeviceRow => ({ ...r, createdAt: r.createdAt.toISOString(), lastSeenAt: r.lastSeenAt?.toISOString() ?? null });

export const newSecret = () => randomBytes(24).toString('base64url');

export function deviceService(db: Db, audit: (e: AuditEntry) => Promise<void>) {
  async function visible(caller: Caller, id: string): Promise<DeviceRow> {
    const scope = await orgTree(db, caller.orgId);
    const [row] = await db.select(fields).from(devices).innerJoin(orgs, eq(orgs.id, devices.orgId)).where(eq(devices.id, id));
    if (!row || !scope.includes(row.orgId)) throw new AppError(404, 'NOT_FOUND');
    return toRow(row);
  }
  const record = (caller: Caller, orgId: string, action: string, detail: string, meta: ClientMeta) =>
    audit({ orgId, userId: caller.userId, account: caller.account, action, result: 'success', detail, ...meta });

  return {
    async list(caller: Caller, q: DeviceQuery): Promise<Page<DeviceRow>> {
      let scope = await orgTree(db, caller.orgId);
      if (q.orgId) {
        if (!scope.includes(q.orgId)) throw new AppError(404, 'NOT_FOUND');
        scope = await orgTree(db, q.orgId);
      }
      const w = and(
        inOrgs(devices.orgId, scope),
        q.keyword ? or(ilike(devices.deviceId, containsPattern(q.keyword)), ilike(devices.name, containsPattern(q.keyword))) : undefined,
      );
      const [total] = await db.select({ n: count() }).from(devices).where(w);
      const rows = await db
        .select(fields)
        .from(devices)
        .innerJoin(orgs, eq(orgs.id, devices.orgId))
        .where(w)
        .orderBy(...orderBy(q.sort, SORTABLE, 'deviceId,asc', devices.id))
        .limit(limitOffset(q).limit)
        .offset(limitOffset(q).offset);
      return { rows: rows.map(toRow), total: Number(total?.n ?? 0), page: q.page, size: q.size };
    },

    get: visible,

    async create(caller: Caller, body: DeviceCreateBody, meta: ClientMeta): Promise<DeviceWithSecret> {
      const orgId = body.orgId ?? caller.orgId;
      if (!(await orgTree(db, caller.orgId)).includes(orgId)) throw new AppError(404, 'NOT_FOUND');
      const [taken] = await db.select({ id: devices.id }).from(devices).where(eq(devices.deviceId, body.deviceId));
      if (taken) throw new AppError(409, 'DEVICE_ID_TAKEN');
      const secret = newSecret();
      const [row] = await db
        .insert(devices)
        .values({
          orgId,
          deviceId: body.deviceId,
          name: body.name,
          model: body.model ?? null,
          protocol: body.protocol ?? null,
          sim: body.sim ?? null,
          firmware: body.firmware ?? null,
          secretHash: hashSecret(secret),
        })
        .onConflictDoNothing()
        .returning({ id: devices.id });
      if (!row) throw new AppError(409, 'DEVICE_ID_TAKEN');
      await record(caller, orgId, 'device_create', body.deviceId, meta);
      return { ...(await visible(caller, row.id)), secret };
    },

    async update(caller: Caller, id: string, body: DeviceUpdateBody, meta: ClientMeta): Promise<DeviceRow> {
      const before = await visible(caller, id);
      await db
        .update(devices)
        .set({ name: body.name, model: body.model ?? null, protocol: body.protocol ?? null, sim: body.sim ?? null, firmware: body.firmware ?? null })
        .where(eq(devices.id, id));
      await record(caller, before.orgId, 'device_update', before.deviceId, meta);
      return visible(caller, id);
    },

    /** A new secret: the old one stops working at once. */
    async resetSecret(caller: Caller, id: string, meta: ClientMeta): Promise<DeviceWithSecret> {
      const before = await visible(caller, id);
      const secret = newSecret();
      await db.update(devices).set({ secretHash: hashSecret(secret) }).where(eq(devices.id, id));
      await record(caller, before.orgId, 'device_secret', before.deviceId, meta);
      return { ...before, secret };
    },

    /** Deletes the device with its readings and intake log. */
    async remove(caller: Caller, id: string, meta: ClientMeta) {
      const before = await visible(caller, id);
      await db.delete(devices).where(eq(devices.id, id));
      await record(caller, before.orgId, 'device_delete', before.deviceId, meta);
    },
  };
}
export type DeviceService = ReturnType<typeof deviceService>;
