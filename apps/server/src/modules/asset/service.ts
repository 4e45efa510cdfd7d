// Assets of the caller's organisation tree, one service for every kind: list, create, change,
// delete (its bindings end, their history stays), Excel export / template / import (all rows or
// none), and binding devices to assets with the history of every binding.
import { and, asc, count, desc, eq, ilike, inArray, isNull, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  ASSET_PARENTS,
  assetBodySchema,
  type AssetBody,
  type AssetKind,
  type AssetQuery,
  type AssetRow,
  type BindingRow,
  type ImportResult,
} from '@iotc/shared/asset';
import type { Page } from '@iotc/shared/envelope';
import { errorText } from '@iotc/shared/errors';
import type { Lang } from '@iotc/shared/i18n';
import type { ExportFormat } from '@iotc/shared/list';
import { MAX_EXPORT_ROWS } from '@iotc/shared/list';
import type { Db } from '../../db/client.ts';
import { containsPattern, inOrgs, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { assets, deviceBindings, devices, orgs, places } from '../../db/schema.ts';
import { exportRows, type ExportFile } from '../../lib/export.ts';
import { bodyOf, readWorkbook, templateWorkbook } from '../../lib/sheet.ts';
import type { ClientMeta } from '../../lib/caller.ts';
import { zodIssueText } from '../../plugins/errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import { assetColumns } from './columns.ts';
import { visibleDevice } from '../../db/devices.ts';

const KIND_NAMES: Record<AssetKind, { zh: string; en: string }> = {
  vehicle: { zh: '车辆', en: 'vehicles' },
  container: { zh: '集装箱', en: 'containers' },
  warehouse: { zh: '仓库', en: 'warehouses' },
  cold_room: { zh: '冷库', en: 'cold-rooms' },
  refrigerator: { zh: '冷柜', en: 'refrigerators' },
  gateway: { zh: '网关', en: 'gateways' },
};

const parent = alias(assets, 'parent');
const SORTABLE: Sortable = { code: assets.code, name: assets.name, createdAt: assets.createdAt, updatedAt: assets.updatedAt };

type AssetSelect = typeof assets.$inferSelect & { parentName: string | null; orgName: string; placeName: string | null };

export function assetService(db: Db, audit: AuditWriter) {
  const record = successRecorder(audit);

  function selectAssets() {
    return db
      .select({
        id: assets.id,
        orgId: assets.orgId,
        kind: assets.kind,
        code: assets.code,
        name: assets.name,
        parentId: assets.parentId,
        attrs: assets.attrs,
        tempMin: assets.tempMin,
        tempMax: assets.tempMax,
        humidityMin: assets.humidityMin,
        humidityMax: assets.humidityMax,
        placeId: assets.placeId,
        placeName: places.name,
        createdAt: assets.createdAt,
        updatedAt: assets.updatedAt,
        parentName: parent.name,
        parentCode: parent.code,
        orgName: orgs.name,
      })
      .from(assets)
      .innerJoin(orgs, eq(orgs.id, assets.orgId))
      .leftJoin(parent, eq(parent.id, assets.parentId))
      .leftJoin(places, eq(places.id, assets.placeId));
  }

  /** Rows with the devices bound to each now. */
  async function withDevices(rows: AssetSelect[]): Promise<AssetRow[]> {
    const ids = rows.map((r) => r.id);
    const bound = ids.length
      ? await db
          .select({ assetRef: deviceBindings.assetRef, id: devices.id, deviceId: devices.deviceId, name: devices.name })
          .from(deviceBindings)
          .innerJoin(devices, eq(devices.id, deviceBindings.deviceRef))
          .where(and(inArray(deviceBindings.assetRef, ids), isNull(deviceBindings.unboundAt)))
          .orderBy(asc(devices.deviceId))
      : [];
    const byAsset = new Map<string, AssetRow['devices']>();
    for (const { assetRef, id, deviceId, name } of bound) {
      if (!assetRef) continue;
      const list = byAsset.get(assetRef) ?? [];
      list.push({ id, deviceId, name });
      byAsset.set(assetRef, list);
    }
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      code: r.code,
      name: r.name,
      parentId: r.parentId,
      parentName: r.parentName,
      orgId: r.orgId,
      orgName: r.orgName,
      attrs: r.attrs as AssetRow['attrs'],
      tempMin: r.tempMin,
      tempMax: r.tempMax,
      humidityMin: r.humidityMin,
      humidityMax: r.humidityMax,
      placeId: r.placeId,
      placeName: r.placeName,
      devices: byAsset.get(r.id) ?? [],
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }));
  }

  /** The asset of an id, of this kind (any kind when null), that the caller may see; else 404. */
  async function visible(caller: Caller, kind: AssetKind | null, id: string): Promise<AssetRow> {
    const scope = caller.scope.orgs;
    const [row] = await selectAssets().where(eq(assets.id, id));
    if (!row || !scope.includes(row.orgId) || (kind && row.kind !== kind)) throw new AppError(404, 'NOT_FOUND');
    return (await withDevices([row]))[0]!;
  }

  /** The parent must be visible and of a kind this kind may sit in. */
  async function checkParent(caller: Caller, kind: AssetKind, parentId: string | null, self?: string): Promise<void> {
    const allowed = ASSET_PARENTS[kind];
    if (parentId === null) return;
    if (!allowed || parentId === self) throw new AppError(400, 'ASSET_PARENT_KIND');
    const p = await visible(caller, null, parentId).catch(() => null);
    if (!p || !allowed.includes(p.kind)) throw new AppError(400, 'ASSET_PARENT_KIND');
  }

  function filter(scope: readonly string[], kind: AssetKind, q: Pick<AssetQuery, 'keyword' | 'parentId'>) {
    return and(
      inOrgs(assets.orgId, scope),
      eq(assets.kind, kind),
      q.parentId ? eq(assets.parentId, q.parentId) : undefined,
      q.keyword ? or(ilike(assets.code, containsPattern(q.keyword)), ilike(assets.name, containsPattern(q.keyword))) : undefined,
    );
  }

  const values = (body: AssetBody) => ({
    code: body.code,
    name: body.name,
    parentId: body.parentId,
    attrs: body.attrs,
    tempMin: body.tempMin,
    tempMax: body.tempMax,
    humidityMin: body.humidityMin,
    humidityMax: body.humidityMax,
    ...(body.placeId !== undefined ? { placeId: body.placeId } : {}),
  });

  /**
   * A warehouse's library place: one of the warehouse's organisation, whose centre becomes the
   * warehouse's latitude and longitude (a later change to the place moves them too).
   */
  async function withPlace(ex: Pick<Db, 'select'>, orgId: string, body: AssetBody): Promise<AssetBody> {
    if (!body.placeId) return body;
    const [place] = await ex.select({ orgId: places.orgId, lat: places.lat, lon: places.lon }).from(places).where(eq(places.id, body.placeId));
    if (!place || place.orgId !== orgId) throw new AppError(400, 'PLACE_UNKNOWN');
    return { ...body, attrs: { ...body.attrs, lat: place.lat, lon: place.lon } };
  }

  async function codeTaken(orgId: string, kind: AssetKind, code: string, except?: string) {
    const [hit] = await db
      .select({ id: assets.id })
      .from(assets)
      .where(and(eq(assets.orgId, orgId), eq(assets.kind, kind), eq(assets.code, code)));
    return Boolean(hit && hit.id !== except);
  }

  const bindingRow = (r: typeof deviceBindings.$inferSelect): BindingRow => ({
    id: r.id,
    deviceRef: r.deviceRef,
    deviceId: r.deviceId,
    assetId: r.assetRef,
    assetKind: r.assetKind,
    assetCode: r.assetCode,
    assetName: r.assetName,
    boundAt: r.boundAt.toISOString(),
    boundBy: r.boundBy,
    unboundAt: r.unboundAt?.toISOString() ?? null,
    unboundBy: r.unboundBy,
  });

  async function bindingPage(where: ReturnType<typeof eq>, page: number, size: number): Promise<Page<BindingRow>> {
    const [total] = await db.select({ n: count() }).from(deviceBindings).where(where);
    const { limit, offset } = limitOffset({ page, size });
    const rows = await db
      .select()
      .from(deviceBindings)
      .where(where)
      .orderBy(desc(deviceBindings.boundAt), desc(deviceBindings.id))
      .limit(limit)
      .offset(offset);
    return toPage(rows.map(bindingRow), Number(total?.n ?? 0), { page, size });
  }

  const device = (caller: Caller, id: string) => visibleDevice(db, caller.orgId, id);

  return {
    async list(caller: Caller, kind: AssetKind, q: AssetQuery): Promise<Page<AssetRow>> {
      const w = filter(caller.scope.within(q.orgId), kind, q);
      const [total] = await db.select({ n: count() }).from(assets).where(w);
      const { limit, offset } = limitOffset(q);
      const rows = await selectAssets()
        .where(w)
        .orderBy(...orderBy(q.sort, SORTABLE, 'code,asc', assets.id))
        .limit(limit)
        .offset(offset);
      return toPage(await withDevices(rows), Number(total?.n ?? 0), q);
    },

    get: (caller: Caller, kind: AssetKind, id: string) => visible(caller, kind, id),

    async create(caller: Caller, kind: AssetKind, body: AssetBody, meta: ClientMeta): Promise<AssetRow> {
      const orgId = body.orgId ?? caller.orgId;
      if (!caller.scope.has(orgId)) throw new AppError(404, 'NOT_FOUND');
      await checkParent(caller, kind, body.parentId);
      if (await codeTaken(orgId, kind, body.code)) throw new AppError(409, 'ASSET_CODE_TAKEN');
      const row = await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(assets)
          .values({ orgId, kind, ...values(await withPlace(tx, orgId, body)) })
          .onConflictDoNothing()
          .returning({ id: assets.id });
        if (!made) throw new AppError(409, 'ASSET_CODE_TAKEN');
        await record(tx, caller, orgId, 'asset_create', `${kind} ${body.code}`, meta);
        return made;
      });
      return visible(caller, kind, row.id);
    },

    async update(caller: Caller, kind: AssetKind, id: string, body: AssetBody, meta: ClientMeta): Promise<AssetRow> {
      const before = await visible(caller, kind, id);
      await checkParent(caller, kind, body.parentId, id);
      if (await codeTaken(before.orgId, kind, body.code, id)) throw new AppError(409, 'ASSET_CODE_TAKEN');
      await db.transaction(async (tx) => {
        await tx
          .update(assets)
          .set({ ...values(await withPlace(tx, before.orgId, body.placeId === undefined ? { ...body, placeId: before.placeId } : body)), updatedAt: new Date() })
          .where(eq(assets.id, id));
        // Bindings keep the asset's current code and name for their history.
        await tx.update(deviceBindings).set({ assetCode: body.code, assetName: body.name }).where(and(eq(deviceBindings.assetRef, id), isNull(deviceBindings.unboundAt)));
        await record(tx, caller, before.orgId, 'asset_update', `${kind} ${before.code}${before.code === body.code ? '' : ` -> ${body.code}`}`, meta);
      });
      return visible(caller, kind, id);
    },

    /** Deletes an asset without children; its devices are unbound (the history stays). */
    async remove(caller: Caller, kind: AssetKind, id: string, meta: ClientMeta) {
      const before = await visible(caller, kind, id);
      const [child] = await db.select({ id: assets.id }).from(assets).where(eq(assets.parentId, id)).limit(1);
      if (child) throw new AppError(409, 'ASSET_HAS_CHILDREN');
      await db.transaction(async (tx) => {
        await tx
          .update(deviceBindings)
          .set({ unboundAt: new Date(), unboundBy: caller.account })
          .where(and(eq(deviceBindings.assetRef, id), isNull(deviceBindings.unboundAt)));
        await tx.delete(assets).where(eq(assets.id, id));
        await record(tx, caller, before.orgId, 'asset_delete', `${kind} ${before.code}`, meta);
      });
    },

    async export(caller: Caller, kind: AssetKind, q: Pick<AssetQuery, 'keyword' | 'parentId' | 'orgId'>, format: ExportFormat, lang: Lang, timezone: string): Promise<ExportFile> {
      const w = filter(caller.scope.within(q.orgId), kind, q);
      const [total] = await db.select({ n: count() }).from(assets).where(w);
      if (Number(total?.n ?? 0) > MAX_EXPORT_ROWS) throw new AppError(400, 'EXPORT_TOO_LARGE');
      const selected = await selectAssets().where(w).orderBy(asc(assets.code));
      const parentCodes = new Map(selected.map((r) => [r.id, r.parentCode]));
      const rows = await withDevices(selected);
      const columns = assetColumns(kind).map((c) => ({
        header: c.header,
        width: c.width,
        value: (r: AssetRow) =>
          c.field === 'parentCode'
            ? (parentCodes.get(r.id) ?? null)
            : c.field.startsWith('attrs.')
              ? (r.attrs[c.field.slice(6)] ?? null)
              : (r[c.field as keyof AssetRow] as string | number | null),
      }));
      columns.push({ header: { zh: '绑定设备', en: 'Bound devices' }, width: 30, value: (r) => r.devices.map((d) => d.deviceId).join(', ') });
      columns.push({ header: { zh: '所属组织', en: 'Organisation' }, width: 20, value: (r) => r.orgName });
      return exportRows({ format, lang, timezone, name: KIND_NAMES[kind], sheet: KIND_NAMES[kind], columns, rows });
    },

    template: (kind: AssetKind, lang: Lang) => templateWorkbook(assetColumns(kind), lang, KIND_NAMES[kind]),

    /**
     * Creates the rows whose code is new and changes those whose code exists (in the caller's
     * own organisation); with any error nothing is stored and every error is answered.
     */
    async import(caller: Caller, kind: AssetKind, file: Buffer, lang: Lang, meta: ClientMeta): Promise<ImportResult> {
      const rows = await readWorkbook(file, assetColumns(kind));
      const schema = assetBodySchema(kind);
      const errors: ImportResult['errors'] = [];
      const orgId = caller.orgId;
      const existing = new Map(
        (await db.select({ id: assets.id, code: assets.code }).from(assets).where(and(eq(assets.orgId, orgId), eq(assets.kind, kind)))).map((a) => [a.code, a.id]),
      );
      // Parents are looked up by code among the kinds this kind may sit in.
      const parentKinds = ASSET_PARENTS[kind] ?? [];
      const parents = new Map<string, string>();
      if (parentKinds.length) {
        for (const p of await db.select({ id: assets.id, code: assets.code, kind: assets.kind }).from(assets).where(and(eq(assets.orgId, orgId), inArray(assets.kind, [...parentKinds])))) {
          if (!parents.has(p.code) || p.kind === 'cold_room') parents.set(p.code, p.id);
        }
      }
      const seen = new Set<string>();
      const valid: { body: AssetBody; id?: string }[] = [];
      for (const r of rows) {
        const raw = bodyOf(r.values);
        const parentCode = typeof raw.parentCode === 'string' ? raw.parentCode : '';
        delete raw.parentCode;
        if (parentCode) {
          const pid = parents.get(parentCode);
          if (!pid) {
            errors.push({ row: r.row, field: 'parentCode', message: errorText('ASSET_PARENT_KIND', lang) });
            continue;
          }
          raw.parentId = pid;
        }
        const parsed = schema.safeParse(raw);
        if (!parsed.success) {
          for (const issue of parsed.error.issues) errors.push({ row: r.row, field: issue.path.join('.') || 'row', message: zodIssueText(issue, lang) });
          continue;
        }
        if (seen.has(parsed.data.code)) {
          errors.push({ row: r.row, field: 'code', message: lang === 'zh' ? '表中编号重复' : 'This code appears twice in the sheet' });
          continue;
        }
        seen.add(parsed.data.code);
        valid.push({ body: parsed.data, id: existing.get(parsed.data.code) });
      }
      if (errors.length) return { created: 0, updated: 0, errors };
      const created = valid.filter((v) => !v.id).length;
      await db.transaction(async (tx) => {
        for (const v of valid) {
          if (v.id) await tx.update(assets).set({ ...values(v.body), updatedAt: new Date() }).where(eq(assets.id, v.id));
          else await tx.insert(assets).values({ orgId, kind, ...values(v.body) });
        }
        await record(tx, caller, orgId, 'asset_import', `${kind} +${created} ~${valid.length - created}`, meta);
      });
      return { created, updated: valid.length - created, errors: [] };
    },

    assetBindings: async (caller: Caller, kind: AssetKind, id: string, page: number, size: number) => {
      await visible(caller, kind, id);
      return bindingPage(eq(deviceBindings.assetRef, id), page, size);
    },

    deviceBindings: async (caller: Caller, deviceRef: string, page: number, size: number) => {
      await device(caller, deviceRef);
      return bindingPage(eq(deviceBindings.deviceRef, deviceRef), page, size);
    },

    /** Mounts a device on an asset; a device mounted elsewhere moves (its old binding ends). */
    async bind(caller: Caller, deviceRef: string, assetId: string, meta: ClientMeta): Promise<BindingRow> {
      const d = await device(caller, deviceRef);
      const a = await visible(caller, null, assetId);
      const row = await db.transaction(async (tx) => {
        await record(tx, caller, d.orgId, 'device_bind', `${d.deviceId} -> ${a.kind} ${a.code}`, meta);
        const [current] = await tx.select().from(deviceBindings).where(and(eq(deviceBindings.deviceRef, d.id), isNull(deviceBindings.unboundAt)));
        if (current?.assetRef === a.id) return current;
        if (current) await tx.update(deviceBindings).set({ unboundAt: new Date(), unboundBy: caller.account }).where(eq(deviceBindings.id, current.id));
        const [made] = await tx
          .insert(deviceBindings)
          .values({ orgId: d.orgId, deviceRef: d.id, deviceId: d.deviceId, assetRef: a.id, assetKind: a.kind, assetCode: a.code, assetName: a.name, boundBy: caller.account })
          .returning();
        return made!;
      });
      return bindingRow(row);
    },

    async unbind(caller: Caller, deviceRef: string, meta: ClientMeta): Promise<BindingRow> {
      const d = await device(caller, deviceRef);
      const ended = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(deviceBindings)
          .set({ unboundAt: new Date(), unboundBy: caller.account })
          .where(and(eq(deviceBindings.deviceRef, d.id), isNull(deviceBindings.unboundAt)))
          .returning();
        if (!row) throw new AppError(409, 'DEVICE_NOT_BOUND');
        await record(tx, caller, d.orgId, 'device_unbind', `${d.deviceId} -x ${row.assetKind} ${row.assetCode}`, meta);
        return row;
      });
      return bindingRow(ended);
    },
  };
}
export type AssetService = ReturnType<typeof assetService>;
