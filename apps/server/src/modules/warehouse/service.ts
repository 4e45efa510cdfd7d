// Inbound and outbound records of the caller's organisation tree: list with the audit tab counts,
// create (the temperature at hand-over read from the room's sensor), change and delete while
// pending, approve / reject (by someone other than the author; an outbound that would leave the
// stock below zero is refused), Excel / CSV export, .xlsx import (all rows or none), the stock
// per room and goods / batch (approved records only), and warehouses and stock per province.
import { and, asc, count, eq, gte, ilike, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
import type { ImportResult } from '@iotc/shared/asset';
import { errorText, type ErrorCode } from '@iotc/shared/errors';
import type { Lang } from '@iotc/shared/i18n';
import { findProvince, provinceName, provinceSpellings } from '@iotc/shared/region';
import { MAX_EXPORT_ROWS, type ExportFormat } from '@iotc/shared/list';
import {
  IS_AUDIT,
  MAX_STOCK_ROWS,
  WAREHOUSE_LOCATION_KINDS,
  recordBodySchema,
  type ProvinceAmount,
  type RecordBody,
  type RecordCounts,
  type RecordPage,
  type RecordQuery,
  type RecordRow,
  type StockAnswer,
  type StockQuery,
  type StockRow,
} from '@iotc/shared/warehouse';
import { type Db, type Executor } from '../../db/client.ts';
import { containsPattern, inOrgs, limitOffset, orderBy, toPage, type Sortable } from '../../db/list.ts';
import { assets, orgs, warehouseRecords } from '../../db/schema.ts';
import { exportRows, type ExportFile } from '../../lib/export.ts';
import { readWorkbook, templateWorkbook } from '../../lib/sheet.ts';
import { zodIssueText } from '../../plugins/errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller, ClientMeta } from '../../lib/caller.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { successRecorder } from '../audit/service.ts';
import { DEFAULT_MEANING, type SignatureFields } from '@iotc/shared/signature';
import type { SignatureService } from '../signature/service.ts';
import { AUDIT_TEXT, DIRECTION_TEXT, IMPORT_COLUMNS, SHEET_NAME, directionOf } from './columns.ts';
import { readingAt } from './readings.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

const wh = alias(assets, 'wh');
const room = alias(assets, 'room');
const SORTABLE: Sortable = {
  time: warehouseRecords.time,
  createdAt: warehouseRecords.createdAt,
  quantity: warehouseRecords.quantity,
  goodsName: warehouseRecords.goodsName,
  batchNo: warehouseRecords.batchNo,
};
const DEFAULT_SORT = 'time,desc';
/** `YYYY-MM-DD HH:mm[:ss]` (or ISO 8601 as a date cell is read), in the request's time zone. */
const WALL_CLOCK = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?Z?$/;
/** Quantities are compared with this slack (decimal fractions added up in floating point). */
const EPSILON = 1e-9;

type Asset = typeof assets.$inferSelect;
export interface Location {
  warehouse: Asset;
  /** The cold room or refrigerator; null for the warehouse itself. */
  room: Asset | null;
}

const attr = (a: unknown, key: string): string | null => {
  const v = (a as Record<string, unknown> | null)?.[key];
  return v === null || v === undefined || v === '' ? null : String(v);
};

/** The record's values that come from its place and time: copies of codes and names, the reading. */
export async function placeValues(db: Executor, loc: Location, time: Date) {
  const reading = loc.room ? await readingAt(db, loc.room.id, time) : null;
  return {
    orgId: (loc.room ?? loc.warehouse).orgId,
    warehouseRef: loc.warehouse.id,
    warehouseCode: loc.warehouse.code,
    warehouseName: loc.warehouse.name,
    roomRef: loc.room?.id ?? null,
    roomKind: (loc.room?.kind ?? null) as 'cold_room' | 'refrigerator' | null,
    roomCode: loc.room?.code ?? null,
    roomName: loc.room?.name ?? null,
    time,
    temperature: reading?.temperature ?? null,
    humidity: reading?.humidity ?? null,
    readingTime: reading?.time ?? null,
    readingDeviceId: reading?.deviceId ?? null,
  };
}

const bodyValues = (b: RecordBody) => ({
  direction: b.direction,
  goodsName: b.goodsName,
  batchNo: b.batchNo,
  quantity: b.quantity,
  unit: b.unit,
  handler: b.handler,
  remark: b.remark,
});

/** The warehouse of a warehouse, cold room or refrigerator asset among the given organisations; else 400. */
export async function locate(db: Executor & Pick<Db, 'select'>, scope: readonly string[], id: string): Promise<Location> {
  const one = async (assetId: string | null) => (assetId ? (await db.select().from(assets).where(eq(assets.id, assetId)))[0] : undefined);
  const loc = await one(id);
  if (!loc || !scope.includes(loc.orgId) || !(WAREHOUSE_LOCATION_KINDS as readonly string[]).includes(loc.kind)) throw new AppError(400, 'WAREHOUSE_LOCATION_UNKNOWN');
  if (loc.kind === 'warehouse') return { warehouse: loc, room: null };
  let p = await one(loc.parentId);
  if (p?.kind === 'cold_room') p = await one(p.parentId);
  if (!p || p.kind !== 'warehouse') throw new AppError(400, 'WAREHOUSE_LOCATION_UNKNOWN');
  return { warehouse: p, room: loc };
}

/** The warehouse's written province (`attrs.province`) is the one `value` names: any spelling of a dictionary province, else the same text. */
function provinceIs(attrs: typeof wh.attrs, value: string): SQL {
  const spellings = provinceSpellings(value);
  return sql`lower(regexp_replace(trim(${attrs}->>'province'), '[\\s-]+', '', 'g')) = any(${`{${spellings.map((s) => `"${s.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[])`;
}

export function warehouseService(db: Db, deps: { audit: AuditWriter; signatures: SignatureService }) {
  /** Records made, changed, removed and imported are audited in their transaction (a review is signed, with its own row). */
  const record = successRecorder(deps.audit);
  const about = (b: Pick<RecordBody, 'direction' | 'goodsName' | 'batchNo'>) => `${b.direction} ${b.goodsName}${b.batchNo ? ` ${b.batchNo}` : ''}`;
  function selectRecords() {
    return db
      .select({
        r: warehouseRecords,
        orgName: orgs.name,
        whAttrs: wh.attrs,
        whCode: wh.code,
        whName: wh.name,
        whTempMin: wh.tempMin,
        whTempMax: wh.tempMax,
        whHumMin: wh.humidityMin,
        whHumMax: wh.humidityMax,
        roomCode: room.code,
        roomName: room.name,
        roomTempMin: room.tempMin,
        roomTempMax: room.tempMax,
        roomHumMin: room.humidityMin,
        roomHumMax: room.humidityMax,
      })
      .from(warehouseRecords)
      .innerJoin(orgs, eq(orgs.id, warehouseRecords.orgId))
      .leftJoin(wh, eq(wh.id, warehouseRecords.warehouseRef))
      .leftJoin(room, eq(room.id, warehouseRecords.roomRef));
  }
  type Selected = Awaited<ReturnType<ReturnType<typeof selectRecords>['execute']>>[number];

  const toRow = (s: Selected): RecordRow => {
    const r = s.r;
    const inRoom = r.roomRef !== null || r.roomCode !== null;
    return {
      id: r.id,
      orgId: r.orgId,
      orgName: s.orgName,
      warehouseId: r.warehouseRef,
      warehouseCode: s.whCode ?? r.warehouseCode,
      warehouseName: s.whName ?? r.warehouseName,
      roomId: r.roomRef,
      roomKind: r.roomKind,
      roomCode: s.roomCode ?? r.roomCode,
      roomName: s.roomName ?? r.roomName,
      province: attr(s.whAttrs, 'province'),
      provinceCode: findProvince(attr(s.whAttrs, 'province'))?.code ?? null,
      city: attr(s.whAttrs, 'city'),
      address: attr(s.whAttrs, 'address'),
      zip: attr(s.whAttrs, 'zip'),
      direction: r.direction,
      goodsName: r.goodsName,
      batchNo: r.batchNo,
      quantity: r.quantity,
      unit: r.unit,
      time: r.time.toISOString(),
      handler: r.handler,
      remark: r.remark,
      temperature: r.temperature,
      humidity: r.humidity,
      readingTime: r.readingTime?.toISOString() ?? null,
      readingDeviceId: r.readingDeviceId,
      noReading: inRoom && r.readingTime === null,
      tempMin: inRoom ? s.roomTempMin : s.whTempMin,
      tempMax: inRoom ? s.roomTempMax : s.whTempMax,
      humidityMin: inRoom ? s.roomHumMin : s.whHumMin,
      humidityMax: inRoom ? s.roomHumMax : s.whHumMax,
      auditStatus: r.auditStatus,
      isAudit: IS_AUDIT[r.auditStatus],
      reviewer: r.reviewer,
      reviewedAt: r.reviewedAt?.toISOString() ?? null,
      auditReason: r.auditReason,
      createdBy: r.createdBy,
      createdById: r.createdById,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  };

  /** The list's conditions; the audit status is left out for the tab counts. */
  function filter(scope: readonly string[], q: Omit<RecordQuery, 'page' | 'size' | 'sort'>, withStatus: boolean): SQL | undefined {
    if (q.from && q.to && Date.parse(q.from) >= Date.parse(q.to)) throw new AppError(400, 'TRACK_RANGE_INVERTED');
    return and(
      inOrgs(warehouseRecords.orgId, scope),
      q.warehouseId ? eq(warehouseRecords.warehouseRef, q.warehouseId) : undefined,
      q.roomId ? eq(warehouseRecords.roomRef, q.roomId) : undefined,
      q.direction ? eq(warehouseRecords.direction, q.direction) : undefined,
      withStatus && q.auditStatus ? eq(warehouseRecords.auditStatus, q.auditStatus) : undefined,
      q.keyword ? or(ilike(warehouseRecords.goodsName, containsPattern(q.keyword)), ilike(warehouseRecords.batchNo, containsPattern(q.keyword))) : undefined,
      q.from ? gte(warehouseRecords.time, new Date(q.from)) : undefined,
      q.to ? lt(warehouseRecords.time, new Date(q.to)) : undefined,
      q.province ? provinceIs(wh.attrs, q.province) : undefined,
    );
  }

  /** A record the caller may see; else 404. */
  async function visible(caller: Caller, id: string): Promise<RecordRow> {
    const [s] = await selectRecords().where(eq(warehouseRecords.id, id));
    if (!s || !caller.scope.has(s.r.orgId)) throw new AppError(404, 'NOT_FOUND');
    return toRow(s);
  }

  /** After a conditional change touched nothing: 404 when the caller cannot see it, else 409 (no longer pending). */
  async function notPending(caller: Caller, id: string): Promise<never> {
    await visible(caller, id);
    throw new AppError(409, 'WAREHOUSE_RECORD_NOT_PENDING');
  }

  const timeOf = (b: RecordBody) => (b.time ? new Date(b.time) : new Date());

  /** Approved stock (in − out) at a record's place of its goods, batch and unit. */
  async function stockOf(tx: Executor & Pick<Db, 'select'>, r: typeof warehouseRecords.$inferSelect): Promise<number> {
    const [s] = await tx
      .select({ n: sql<string | number | null>`coalesce(sum(case when ${warehouseRecords.direction} = 'in' then ${warehouseRecords.quantity} else -${warehouseRecords.quantity} end), 0)` })
      .from(warehouseRecords)
      .where(
        and(
          eq(warehouseRecords.auditStatus, 'approved'),
          r.roomRef ? eq(warehouseRecords.roomRef, r.roomRef) : and(isNull(warehouseRecords.roomRef), r.warehouseRef ? eq(warehouseRecords.warehouseRef, r.warehouseRef) : sql`false`),
          eq(warehouseRecords.goodsName, r.goodsName),
          eq(warehouseRecords.batchNo, r.batchNo),
          eq(warehouseRecords.unit, r.unit),
        ),
      );
    return Number(s?.n ?? 0);
  }

  /** Approves or rejects, signed: the password is checked first, the signature written with the change. */
  async function review(caller: Caller, id: string, to: 'approved' | 'rejected', body: SignatureFields & { reason: string }, meta: ClientMeta): Promise<RecordRow> {
    const scope = caller.scope.orgs;
    // Another organisation's record is not found, whatever the body says.
    await visible(caller, id);
    const meaning = body.meaning ?? (to === 'approved' ? DEFAULT_MEANING.approve : DEFAULT_MEANING.reject);
    if (to === 'approved' ? meaning !== 'approved' && meaning !== 'reviewed' : meaning !== 'rejected') throw new AppError(400, 'SIGNATURE_MEANING_INVALID');
    const signer = await deps.signatures.prove(caller, body, meta);
    const reason = body.reason;
    await db.transaction(async (tx) => {
      const [r] = await tx.select().from(warehouseRecords).where(eq(warehouseRecords.id, id)).for('update');
      if (!r || !scope.includes(r.orgId)) throw new AppError(404, 'NOT_FOUND');
      if (r.auditStatus !== 'pending') throw new AppError(409, 'WAREHOUSE_RECORD_NOT_PENDING');
      if (r.createdById === caller.userId) throw new AppError(403, 'WAREHOUSE_SELF_AUDIT');
      if (to === 'approved' && r.direction === 'out') {
        // One approval per place at a time: the stock read next is the stock this one changes.
        const place = r.roomRef ?? r.warehouseRef;
        if (place) await tx.select({ id: assets.id }).from(assets).where(eq(assets.id, place)).for('update');
        const stock = await stockOf(tx, r);
        if (stock - r.quantity < -EPSILON) {
          throw new AppError(409, 'WAREHOUSE_STOCK_NEGATIVE', `${r.goodsName}${r.batchNo ? ` / ${r.batchNo}` : ''}: ${round(stock)} ${r.unit}`.trim());
        }
      }
      await tx
        .update(warehouseRecords)
        .set({ auditStatus: to, reviewerId: caller.userId, reviewer: caller.account, reviewedAt: new Date(), auditReason: reason, updatedAt: new Date() })
        .where(eq(warehouseRecords.id, id));
      await deps.signatures.sign(tx, signer, { recordType: 'warehouse_record', recordId: id, meaning });
    });
    return visible(caller, id);
  }

  async function listRows(scope: readonly string[], q: Omit<RecordQuery, 'page' | 'size'>, limit?: { limit: number; offset: number }) {
    const base = selectRecords()
      .where(filter(scope, q, true))
      .orderBy(...orderBy(q.sort, SORTABLE, DEFAULT_SORT, warehouseRecords.id));
    return limit ? base.limit(limit.limit).offset(limit.offset) : base;
  }

  return {
    async list(caller: Caller, q: RecordQuery): Promise<RecordPage> {
      const scope = caller.scope.within(q.orgId);
      const groups = await db
        .select({ status: warehouseRecords.auditStatus, n: count() })
        .from(warehouseRecords)
        .leftJoin(wh, eq(wh.id, warehouseRecords.warehouseRef))
        .where(filter(scope, q, false))
        .groupBy(warehouseRecords.auditStatus);
      const counts: RecordCounts = { all: 0, pending: 0, approved: 0, rejected: 0 };
      for (const g of groups) {
        counts[g.status] = Number(g.n);
        counts.all += Number(g.n);
      }
      const rows = (await listRows(scope, q, limitOffset(q))).map(toRow);
      const total = q.auditStatus ? counts[q.auditStatus] : counts.all;
      return { ...toPage(rows, total, q), counts };
    },

    get: visible,

    async create(caller: Caller, body: RecordBody, meta: ClientMeta): Promise<RecordRow> {
      const loc = await locate(db, caller.scope.orgs, body.locationId);
      const place = await placeValues(db, loc, timeOf(body));
      const made = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(warehouseRecords)
          .values({ ...place, ...bodyValues(body), createdById: caller.userId, createdBy: caller.account })
          .returning({ id: warehouseRecords.id, orgId: warehouseRecords.orgId });
        await record(tx, caller, row!.orgId, 'warehouse_record_create', about(body), meta);
        return row!;
      });
      return visible(caller, made.id);
    },

    async update(caller: Caller, id: string, body: RecordBody, meta: ClientMeta): Promise<RecordRow> {
      await visible(caller, id);
      const loc = await locate(db, caller.scope.orgs, body.locationId);
      const place = await placeValues(db, loc, timeOf(body));
      const changed = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(warehouseRecords)
          .set({ ...place, ...bodyValues(body), updatedAt: new Date() })
          .where(and(eq(warehouseRecords.id, id), eq(warehouseRecords.auditStatus, 'pending')))
          .returning({ id: warehouseRecords.id, orgId: warehouseRecords.orgId });
        if (row) await record(tx, caller, row.orgId, 'warehouse_record_update', about(body), meta);
        return row;
      });
      if (!changed) return notPending(caller, id);
      return visible(caller, id);
    },

    async remove(caller: Caller, id: string, meta: ClientMeta): Promise<void> {
      const before = await visible(caller, id);
      const gone = await db.transaction(async (tx) => {
        const [row] = await tx
          .delete(warehouseRecords)
          .where(and(eq(warehouseRecords.id, id), eq(warehouseRecords.auditStatus, 'pending')))
          .returning({ id: warehouseRecords.id });
        if (row) await record(tx, caller, before.orgId, 'warehouse_record_delete', about(before), meta);
        return row;
      });
      if (!gone) await notPending(caller, id);
    },

    approve: (caller: Caller, id: string, body: SignatureFields & { reason: string }, meta: ClientMeta) => review(caller, id, 'approved', body, meta),
    reject: (caller: Caller, id: string, body: SignatureFields & { reason: string }, meta: ClientMeta) => review(caller, id, 'rejected', body, meta),

    async export(caller: Caller, q: Omit<RecordQuery, 'page' | 'size'>, format: ExportFormat, lang: Lang, tz: string): Promise<ExportFile> {
      const scope = caller.scope.within(q.orgId);
      const [total] = await db
        .select({ n: count() })
        .from(warehouseRecords)
        .leftJoin(wh, eq(wh.id, warehouseRecords.warehouseRef))
        .where(filter(scope, q, true));
      if (Number(total?.n ?? 0) > MAX_EXPORT_ROWS) throw new AppError(400, 'EXPORT_TOO_LARGE');
      const rows = (await listRows(scope, q)).map(toRow);
      const at = (iso: string | null) => (iso ? new Date(iso) : null);
      return exportRows<RecordRow>({
        format,
        lang,
        timezone: tz,
        name: SHEET_NAME,
        sheet: SHEET_NAME,
        rows,
        columns: [
          { header: { zh: '出入库时间', en: 'Time' }, value: (r) => new Date(r.time), width: 21 },
          { header: { zh: '方向', en: 'Direction' }, value: (r) => DIRECTION_TEXT[r.direction][lang], width: 10 },
          { header: { zh: '仓库编码', en: 'Warehouse code' }, value: (r) => r.warehouseCode, width: 14 },
          { header: { zh: '仓库', en: 'Warehouse' }, value: (r) => r.warehouseName, width: 22 },
          { header: { zh: '冷库或冷柜编码', en: 'Cold room or refrigerator code' }, value: (r) => r.roomCode, width: 18 },
          { header: { zh: '冷库或冷柜', en: 'Cold room or refrigerator' }, value: (r) => r.roomName, width: 18 },
          { header: { zh: '省份', en: 'Province' }, value: (r) => provinceName(r.province, lang) || null, width: 10 },
          { header: { zh: '城市', en: 'City' }, value: (r) => r.city, width: 10 },
          { header: { zh: '货物名称', en: 'Goods' }, value: (r) => r.goodsName, width: 20 },
          { header: { zh: '批次号', en: 'Batch number' }, value: (r) => r.batchNo, width: 16 },
          { header: { zh: '数量', en: 'Quantity' }, value: (r) => r.quantity, width: 10 },
          { header: { zh: '单位', en: 'Unit' }, value: (r) => r.unit, width: 8 },
          { header: { zh: '经手人', en: 'Handler' }, value: (r) => r.handler, width: 12 },
          { header: { zh: '交接温度(°C)', en: 'Hand-over temperature (°C)' }, value: (r) => r.temperature, width: 14 },
          { header: { zh: '交接湿度(%)', en: 'Hand-over humidity (%)' }, value: (r) => r.humidity, width: 14 },
          { header: { zh: '读数时间', en: 'Reading time' }, value: (r) => at(r.readingTime), width: 21 },
          { header: { zh: '审核状态', en: 'Audit status' }, value: (r) => AUDIT_TEXT[r.auditStatus][lang], width: 10 },
          { header: { zh: '审核人', en: 'Reviewer' }, value: (r) => r.reviewer, width: 14 },
          { header: { zh: '审核时间', en: 'Reviewed at' }, value: (r) => at(r.reviewedAt), width: 21 },
          { header: { zh: '审核意见', en: 'Review note' }, value: (r) => r.auditReason, width: 24 },
          { header: { zh: '登记人', en: 'Entered by' }, value: (r) => r.createdBy, width: 14 },
          { header: { zh: '备注', en: 'Remark' }, value: (r) => r.remark, width: 24 },
        ],
      });
    },

    importTemplate: (lang: Lang) => templateWorkbook(IMPORT_COLUMNS, lang, SHEET_NAME),

    /**
     * Records from a sheet, pending review like any new record: places by warehouse code (and
     * the code of a cold room or refrigerator of it), times in the request's time zone (blank:
     * now). With any error nothing is stored and every error is answered.
     */
    async import(caller: Caller, file: Buffer, lang: Lang, tz: string, meta: ClientMeta): Promise<ImportResult> {
      const sheet = await readWorkbook(file, IMPORT_COLUMNS);
      const scope = caller.scope.orgs;
      const all = await db
        .select()
        .from(assets)
        .where(and(inOrgs(assets.orgId, scope), inArray(assets.kind, [...WAREHOUSE_LOCATION_KINDS])))
        // The caller's own organisation last: its code wins over a descendant's.
        .orderBy(sql`${assets.orgId} = ${caller.orgId}`);
      const byId = new Map(all.map((a) => [a.id, a]));
      const warehouses = new Map(all.filter((a) => a.kind === 'warehouse').map((a) => [a.code, a]));
      const warehouseOf = (a: Asset): Asset | undefined => {
        const p = a.parentId ? byId.get(a.parentId) : undefined;
        if (p?.kind === 'warehouse') return p;
        const pp = p?.kind === 'cold_room' && p.parentId ? byId.get(p.parentId) : undefined;
        return pp?.kind === 'warehouse' ? pp : undefined;
      };
      // Rooms by warehouse id and code (a cold room wins over a refrigerator of the same code).
      const rooms = new Map<string, Asset>();
      for (const a of all.filter((x) => x.kind === 'refrigerator').concat(all.filter((x) => x.kind === 'cold_room'))) {
        const w = warehouseOf(a);
        if (w) rooms.set(`${w.id}/${a.code}`, a);
      }
      const errors: ImportResult['errors'] = [];
      const valid: { loc: Location; body: RecordBody }[] = [];
      for (const r of sheet) {
        const v = r.values;
        const rowErrors: ImportResult['errors'] = [];
        const fail = (field: string, code: ErrorCode) => rowErrors.push({ row: r.row, field, message: errorText(code, lang) });
        const text = (field: string) => (v[field] ?? '').trim();
        const warehouse = warehouses.get(text('warehouseCode'));
        let loc: Location | undefined;
        if (!warehouse) fail('warehouseCode', text('warehouseCode') ? 'WAREHOUSE_LOCATION_UNKNOWN' : 'WAREHOUSE_LOCATION_REQUIRED');
        else if (text('roomCode')) {
          const rm = rooms.get(`${warehouse.id}/${text('roomCode')}`);
          if (!rm) fail('roomCode', 'WAREHOUSE_LOCATION_UNKNOWN');
          else loc = { warehouse, room: rm };
        } else loc = { warehouse, room: null };
        const direction = directionOf(text('direction'));
        if (!direction) fail('direction', 'WAREHOUSE_IMPORT_DIRECTION');
        let quantity: number | undefined;
        if (text('quantity') !== '') {
          quantity = Number(text('quantity'));
          if (!Number.isFinite(quantity)) fail('quantity', 'IMPORT_NUMBER');
        }
        let time: string | undefined;
        if (text('time') !== '') {
          const m = WALL_CLOCK.exec(text('time'));
          // A date cell is read as ISO 8601 UTC (Excel keeps no zone): that instant; a typed text is wall-clock time here.
          const d = m ? (text('time').endsWith('Z') ? dayjs.utc(text('time')) : dayjs.tz(`${m[1]} ${m[2]!.length === 5 ? `${m[2]}:00` : m[2]}`, tz)) : null;
          if (!d || !d.isValid()) fail('time', 'IMPORT_TIME_FORMAT');
          else time = d.toDate().toISOString();
        }
        if (rowErrors.length) {
          errors.push(...rowErrors);
          continue;
        }
        const parsed = recordBodySchema.safeParse({
          locationId: (loc!.room ?? loc!.warehouse).id,
          direction,
          goodsName: text('goodsName'),
          batchNo: text('batchNo'),
          quantity,
          unit: text('unit'),
          time,
          handler: text('handler'),
          remark: text('remark'),
        });
        if (!parsed.success) {
          for (const issue of parsed.error.issues) errors.push({ row: r.row, field: issue.path.join('.') || 'row', message: zodIssueText(issue, lang) });
          continue;
        }
        valid.push({ loc: loc!, body: parsed.data });
      }
      if (errors.length) return { created: 0, updated: 0, errors };
      const now = new Date();
      const values: (typeof warehouseRecords.$inferInsert)[] = [];
      for (const { loc, body } of valid) {
        values.push({
          ...(await placeValues(db, loc, body.time ? new Date(body.time) : now)),
          ...bodyValues(body),
          createdById: caller.userId,
          createdBy: caller.account,
        });
      }
      await db.transaction(async (tx) => {
        for (let i = 0; i < values.length; i += 500) await tx.insert(warehouseRecords).values(values.slice(i, i + 500));
        await record(tx, caller, caller.orgId, 'warehouse_record_import', `+${values.length}`, meta);
      });
      return { created: values.length, updated: 0, errors: [] };
    },

    /** Approved stock per place and goods / batch / unit, ordered by warehouse, room, goods, batch. */
    async stock(caller: Caller, q: StockQuery): Promise<StockAnswer> {
      const scope = caller.scope.within(q.orgId);
      const r = warehouseRecords;
      const where = and(
        eq(r.auditStatus, 'approved'),
        inOrgs(r.orgId, scope),
        q.warehouseId ? eq(r.warehouseRef, q.warehouseId) : undefined,
        q.roomId ? eq(r.roomRef, q.roomId) : undefined,
        q.keyword ? or(ilike(r.goodsName, containsPattern(q.keyword)), ilike(r.batchNo, containsPattern(q.keyword))) : undefined,
        q.province ? provinceIs(wh.attrs, q.province) : undefined,
      );
      const inQ = sql<number>`coalesce(sum(case when ${r.direction} = 'in' then ${r.quantity} end), 0)`;
      const outQ = sql<number>`coalesce(sum(case when ${r.direction} = 'out' then ${r.quantity} end), 0)`;
      const whCode = sql<string>`coalesce(max(${wh.code}), max(${r.warehouseCode}))`;
      const roomCode = sql<string | null>`coalesce(max(${room.code}), max(${r.roomCode}))`;
      // A deleted place (its reference gone) is told apart by the code it had.
      const whKey = sql`coalesce(${r.warehouseRef}::text, 'code:' || ${r.warehouseCode})`;
      const roomKey = sql`coalesce(${r.roomRef}::text, 'code:' || ${r.roomCode})`;
      const rows = await db
        .select({
          warehouseId: r.warehouseRef,
          roomId: r.roomRef,
          warehouseCode: whCode,
          warehouseName: sql<string>`coalesce(max(${wh.name}), max(${r.warehouseName}))`,
          roomCode,
          roomName: sql<string | null>`coalesce(max(${room.name}), max(${r.roomName}))`,
          province: sql<string | null>`max(${wh.attrs}->>'province')`,
          goodsName: r.goodsName,
          batchNo: r.batchNo,
          unit: r.unit,
          inQuantity: inQ,
          outQuantity: outQ,
          lastMovementAt: sql<Date | string>`max(${r.time})`,
        })
        .from(r)
        .leftJoin(wh, eq(wh.id, r.warehouseRef))
        .leftJoin(room, eq(room.id, r.roomRef))
        .where(where)
        .groupBy(r.warehouseRef, r.roomRef, whKey, roomKey, r.goodsName, r.batchNo, r.unit)
        .having(q.includeEmpty === 'true' ? undefined : sql`abs(${inQ} - ${outQ}) > ${EPSILON}`)
        .orderBy(asc(whCode), sql`${roomCode} asc nulls first`, asc(r.goodsName), asc(r.batchNo), asc(r.unit))
        .limit(MAX_STOCK_ROWS + 1);
      const out: StockRow[] = rows.slice(0, MAX_STOCK_ROWS).map((s) => ({
        ...s,
        inQuantity: round(Number(s.inQuantity)),
        outQuantity: round(Number(s.outQuantity)),
        quantity: round(Number(s.inQuantity) - Number(s.outQuantity)),
        province: s.province ?? null,
        lastMovementAt: new Date(s.lastMovementAt).toISOString(),
      }));
      return { rows: out, truncated: rows.length > MAX_STOCK_ROWS };
    },

    /** Warehouses and approved stock per province of the warehouse ('' for none). */
    async provinces(caller: Caller, orgId?: string): Promise<ProvinceAmount[]> {
      const scope = caller.scope.within(orgId);
      const province = sql<string>`coalesce(nullif(trim(${assets.attrs}->>'province'), ''), '')`;
      const counted = await db
        .select({ province, n: count() })
        .from(assets)
        .where(and(inOrgs(assets.orgId, scope), eq(assets.kind, 'warehouse')))
        .groupBy(province);
      const whProvince = sql<string>`coalesce(nullif(trim(${wh.attrs}->>'province'), ''), '')`;
      const stocked = await db
        .select({
          province: whProvince,
          q: sql<number | string>`coalesce(sum(case when ${warehouseRecords.direction} = 'in' then ${warehouseRecords.quantity} else -${warehouseRecords.quantity} end), 0)`,
        })
        .from(warehouseRecords)
        .leftJoin(wh, eq(wh.id, warehouseRecords.warehouseRef))
        .where(and(eq(warehouseRecords.auditStatus, 'approved'), inOrgs(warehouseRecords.orgId, scope)))
        .groupBy(whProvince);
      // One entry per dictionary province, whichever way it is written; other text as written.
      const byProvince = new Map<string, ProvinceAmount>();
      const entry = (written: string) => {
        const code = findProvince(written)?.code ?? null;
        const key = code ?? written;
        return byProvince.get(key) ?? byProvince.set(key, { province: key, code, warehouses: 0, quantity: 0 }).get(key)!;
      };
      for (const c of counted) entry(c.province).warehouses += Number(c.n);
      for (const s of stocked) entry(s.province).quantity = round(entry(s.province).quantity + Number(s.q));
      return [...byProvince.values()].sort((a, b) => b.warehouses - a.warehouses || b.quantity - a.quantity || a.province.localeCompare(b.province));
    },
  };
}
export type WarehouseService = ReturnType<typeof warehouseService>;

/** Quantities as people write them: floating-point noise of added decimals dropped. */
function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
