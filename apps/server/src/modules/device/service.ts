// The device registry: devices of the caller's organisation tree, created with a secret that
// is shown once (the device authenticates its reports with it) and kept only as a hash.
import { and, asc, count, eq, ilike, inArray, or } from 'drizzle-orm';
import { z } from 'zod';
import type { Page } from '@iotc/shared/envelope';
import { deviceCreateBodySchema, JT808_DEVICE_ID_PATTERN, type DeviceCreateBody, type DeviceQuery, type DeviceRow, type DeviceUpdateBody, type DeviceWithSecret } from '@iotc/shared/device';
import type { ImportResult } from '@iotc/shared/asset';
import type { Lang } from '@iotc/shared/i18n';
import { errorText } from '@iotc/shared/errors';
import { MAX_EXPORT_ROWS, type ExportFormat } from '@iotc/shared/list';
import type { Db } from '../../db/client.ts';
import { CURRENT_BINDING } from '../../db/devices.ts';
import { containsPattern, inOrgs, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { assets, deviceBindings, devices, deviceStates, orgs, telemetry, readingDays } from '../../db/schema.ts';
import { exportRows, type ExportFile } from '../../lib/export.ts';
import { bodyOf, readWorkbook, templateWorkbook, type SheetColumn } from '../../lib/sheet.ts';
import type { ClientMeta } from '../../lib/caller.ts';
import { zodIssueText } from '../../plugins/errors.ts';
import { AppError } from '../../lib/errors.ts';
import { hashSecret, newSecret } from '../../ingest/pipeline.ts';
import type { Caller } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';

const SORTABLE: Sortable = { deviceId: devices.deviceId, name: devices.name, createdAt: devices.createdAt, lastSeenAt: deviceStates.receivedAt };

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
  lastSeenAt: deviceStates.receivedAt,
  assetId: assets.id,
  assetKind: assets.kind,
  assetCode: assets.code,
  assetName: assets.name,
};

type Selected = Omit<DeviceRow, 'createdAt' | 'lastSeenAt' | 'asset'> & {
  createdAt: Date;
  lastSeenAt: Date | null;
  assetId: string | null;
  assetKind: string | null;
  assetCode: string | null;
  assetName: string | null;
};
const toRow = ({ assetId, assetKind, assetCode, assetName, ...r }: Selected): DeviceRow => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  lastSeenAt: r.lastSeenAt?.toISOString() ?? null,
  asset: assetId ? { id: assetId, kind: assetKind!, code: assetCode!, name: assetName! } : null,
});

/** Devices with their organisation, latest state and the asset they are mounted on now. */
function selectDevices(db: Db) {
  return db
    .select(fields)
    .from(devices)
    .innerJoin(orgs, eq(orgs.id, devices.orgId))
    .leftJoin(deviceStates, eq(deviceStates.deviceRef, devices.id))
    .leftJoin(deviceBindings, CURRENT_BINDING)
    .leftJoin(assets, eq(assets.id, deviceBindings.assetRef));
}

const DEVICE_COLUMNS: SheetColumn[] = [
  { field: 'deviceId', header: { zh: '设备编号(IMEI/序列号)', en: 'Device id (IMEI / serial)' }, width: 22 },
  { field: 'name', header: { zh: '名称', en: 'Name' }, width: 22 },
  { field: 'model', header: { zh: '型号', en: 'Model' } },
  { field: 'protocol', header: { zh: '协议', en: 'Protocol' } },
  { field: 'sim', header: { zh: 'SIM 卡号', en: 'SIM' } },
  { field: 'firmware', header: { zh: '固件版本', en: 'Firmware' } },
];
const SECRET_COLUMN: SheetColumn = { field: 'secret', header: { zh: '设备密钥(留空自动生成)', en: 'Secret (empty: generated)' }, width: 30 };
const SHEET_NAME = { zh: '设备', en: 'devices' };
/** A secret given in an import sheet: long enough to resist guessing. */
const importedSecret = z.preprocess((v) => (v === '' ? undefined : v), z.string().min(16).max(128).optional());

export function deviceService(db: Db, audit: AuditWriter) {
  async function visible(caller: Caller, id: string): Promise<DeviceRow> {
    const scope = caller.scope.orgs;
    const [row] = await selectDevices(db).where(eq(devices.id, id));
    if (!row || !scope.includes(row.orgId)) throw new AppError(404, 'NOT_FOUND');
    return toRow(row);
  }
  async function filter(caller: Caller, q: Pick<DeviceQuery, 'orgId' | 'keyword' | 'protocol'>) {
    return and(
      inOrgs(devices.orgId, caller.scope.within(q.orgId)),
      q.keyword ? or(ilike(devices.deviceId, containsPattern(q.keyword)), ilike(devices.name, containsPattern(q.keyword))) : undefined,
      q.protocol ? eq(devices.protocol, q.protocol) : undefined,
    );
  }
  const record = successRecorder(audit);

  return {
    async list(caller: Caller, q: DeviceQuery): Promise<Page<DeviceRow>> {
      const w = await filter(caller, q);
      const [total] = await db.select({ n: count() }).from(devices).where(w);
      const { limit, offset } = limitOffset(q);
      const rows = await selectDevices(db)
        .where(w)
        .orderBy(...orderBy(q.sort, SORTABLE, 'deviceId,asc', devices.id))
        .limit(limit)
        .offset(offset);
      return toPage(rows.map(toRow), Number(total?.n ?? 0), q);
    },

    get: visible,

    async create(caller: Caller, body: DeviceCreateBody, meta: ClientMeta): Promise<DeviceWithSecret> {
      const orgId = body.orgId ?? caller.orgId;
      if (!caller.scope.has(orgId)) throw new AppError(404, 'NOT_FOUND');
      const [taken] = await db.select({ id: devices.id }).from(devices).where(eq(devices.deviceId, body.deviceId));
      if (taken) throw new AppError(409, 'DEVICE_ID_TAKEN');
      const secret = newSecret();
      const row = await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(devices)
          .values({
            orgId,
            deviceId: body.deviceId,
            name: body.name,
            model: body.model ?? null,
            protocol: body.protocol ?? 'json',
            sim: body.sim ?? null,
            firmware: body.firmware ?? null,
            secretHash: hashSecret(secret),
          })
          .onConflictDoNothing()
          .returning({ id: devices.id });
        if (!made) throw new AppError(409, 'DEVICE_ID_TAKEN');
        await record(tx, caller, orgId, 'device_create', body.deviceId, meta);
        return made;
      });
      return { ...(await visible(caller, row.id)), secret };
    },

    async update(caller: Caller, id: string, body: DeviceUpdateBody, meta: ClientMeta): Promise<DeviceRow> {
      const before = await visible(caller, id);
      if (body.protocol === 'jt808' && !JT808_DEVICE_ID_PATTERN.test(before.deviceId)) throw new AppError(400, 'JT808_DEVICE_ID_FORMAT');
      await db.transaction(async (tx) => {
        await tx
          .update(devices)
          .set({ name: body.name, model: body.model ?? null, ...(body.protocol ? { protocol: body.protocol } : {}), sim: body.sim ?? null, firmware: body.firmware ?? null })
          .where(eq(devices.id, id));
        await record(tx, caller, before.orgId, 'device_update', before.deviceId, meta);
      });
      return visible(caller, id);
    },

    /** A new secret: the old one stops working at once. */
    async resetSecret(caller: Caller, id: string, meta: ClientMeta): Promise<DeviceWithSecret> {
      const before = await visible(caller, id);
      const secret = newSecret();
      await db.transaction(async (tx) => {
        await tx.update(devices).set({ secretHash: hashSecret(secret) }).where(eq(devices.id, id));
        await record(tx, caller, before.orgId, 'device_secret', before.deviceId, meta);
      });
      return { ...before, secret };
    },

    async export(caller: Caller, q: Pick<DeviceQuery, 'orgId' | 'keyword' | 'protocol'>, format: ExportFormat, lang: Lang, timezone: string): Promise<ExportFile> {
      const w = await filter(caller, q);
      const [total] = await db.select({ n: count() }).from(devices).where(w);
      if (Number(total?.n ?? 0) > MAX_EXPORT_ROWS) throw new AppError(400, 'EXPORT_TOO_LARGE');
      const rows = (await selectDevices(db).where(w).orderBy(asc(devices.deviceId))).map(toRow);
      return exportRows({
        format,
        lang,
        timezone,
        name: SHEET_NAME,
        sheet: SHEET_NAME,
        rows,
        columns: [
          ...DEVICE_COLUMNS.map((c) => ({ header: c.header, width: c.width, value: (r: DeviceRow) => r[c.field as 'name'] })),
          { header: { zh: '绑定资产', en: 'Bound asset' }, width: 22, value: (r) => (r.asset ? `${r.asset.code} ${r.asset.name}` : null) },
          { header: { zh: '所属组织', en: 'Organisation' }, width: 20, value: (r) => r.orgName },
          { header: { zh: '最后上报', en: 'Last report' }, width: 20, value: (r) => (r.lastSeenAt ? new Date(r.lastSeenAt) : null) },
        ],
      });
    },

    template: (lang: Lang) => templateWorkbook([...DEVICE_COLUMNS, SECRET_COLUMN], lang, SHEET_NAME),

    /**
     * Registers new device ids and changes the details of known ones (in the caller's tree);
     * a secret in the sheet is taken, else one is generated and answered once. With any error
     * nothing is stored.
     */
    async import(caller: Caller, file: Buffer, lang: Lang, meta: ClientMeta): Promise<ImportResult> {
      const rows = await readWorkbook(file, [...DEVICE_COLUMNS, SECRET_COLUMN]);
      const scope = caller.scope.orgs;
      const ids = rows.map((r) => r.values.deviceId ?? '').filter(Boolean);
      const known = new Map(
        (ids.length ? await db.select({ id: devices.id, deviceId: devices.deviceId, orgId: devices.orgId }).from(devices).where(inArray(devices.deviceId, ids)) : []).map((d) => [d.deviceId, d]),
      );
      const errors: ImportResult['errors'] = [];
      const valid: { body: DeviceCreateBody; secret?: string; id?: string }[] = [];
      const seen = new Set<string>();
      for (const r of rows) {
        const { secret, ...raw } = bodyOf(r.values);
        const parsed = deviceCreateBodySchema.safeParse(raw);
        const secretParsed = importedSecret.safeParse(secret ?? '');
        if (!parsed.success || !secretParsed.success) {
          for (const issue of [...(parsed.error?.issues ?? []), ...(secretParsed.error?.issues ?? []).map((i) => ({ ...i, path: ['secret'] }))]) {
            errors.push({ row: r.row, field: issue.path.join('.') || 'row', message: zodIssueText(issue, lang) });
          }
          continue;
        }
        const other = known.get(parsed.data.deviceId);
        if (seen.has(parsed.data.deviceId) || (other && !scope.includes(other.orgId))) {
          // Another organisation's device id is as taken as a repeated one.
          errors.push({ row: r.row, field: 'deviceId', message: errorText('DEVICE_ID_TAKEN', lang) });
          continue;
        }
        seen.add(parsed.data.deviceId);
        valid.push({ body: parsed.data, secret: secretParsed.data, id: other?.id });
      }
      if (errors.length) return { created: 0, updated: 0, errors };
      const secrets: { deviceId: string; secret: string }[] = [];
      const created = valid.filter((v) => !v.id).length;
      await db.transaction(async (tx) => {
        for (const v of valid) {
          const details = { name: v.body.name, model: v.body.model ?? null, sim: v.body.sim ?? null, firmware: v.body.firmware ?? null };
          const protocol = v.body.protocol;
          if (v.id) {
            await tx
              .update(devices)
              .set({ ...details, ...(protocol ? { protocol } : {}), ...(v.secret ? { secretHash: hashSecret(v.secret) } : {}) })
              .where(eq(devices.id, v.id));
            continue;
          }
          const secret = v.secret ?? newSecret();
          if (!v.secret) secrets.push({ deviceId: v.body.deviceId, secret });
          await tx.insert(devices).values({ orgId: caller.orgId, deviceId: v.body.deviceId, secretHash: hashSecret(secret), ...details, protocol: protocol ?? 'json' });
        }
        await record(tx, caller, caller.orgId, 'device_import', `+${created} ~${valid.length - created}`, meta);
      });
      return { created, updated: valid.length - created, errors: [], secrets };
    },

    /** Deletes the device with its readings and intake log. */
    async remove(caller: Caller, id: string, meta: ClientMeta) {
      const before = await visible(caller, id);
      await db.transaction(async (tx) => {
        // Readings carry no foreign key (see the schema); the rest goes with the device.
        await tx.delete(telemetry).where(eq(telemetry.deviceRef, id));
        await tx.delete(readingDays).where(eq(readingDays.deviceRef, id));
        await tx.delete(devices).where(eq(devices.id, id));
        await record(tx, caller, before.orgId, 'device_delete', before.deviceId, meta);
      });
    },
  };
}
export type DeviceService = ReturnType<typeof deviceService>;
