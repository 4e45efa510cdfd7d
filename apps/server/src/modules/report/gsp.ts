// The GSP temperature and humidity record of one cold room, refrigerator, warehouse, vehicle or
// container for a local day or month (issue 8, item 3): the readings of the devices bound to the
// asset during the period, recorded by the slot rule of packages/shared/src/gsp-report.ts. As JSON
// for the screen, a PDF (gsp-pdf.ts) and Excel, in the request's language and time zone.
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Lang } from '@iotc/shared/i18n';
import {
  GSP_ASSET_KINDS,
  GSP_INTERVAL_MIN,
  gspDays,
  gspMode,
  gspRows,
  gspSummary,
  MAX_GSP_ROWS,
  type GspAssetKind,
  type GspReport,
  type GspReportQuery,
  type GspSlotRow,
} from '@iotc/shared/gsp-report';
import type { Db } from '../../db/client.ts';
import { assets, orgs } from '../../db/schema.ts';
import { formatInstant, type ExportFile } from '../../lib/export.ts';
import { XLSX_TYPE } from '../../lib/sheet.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';
import { gspDayCells, gspDayHeaders, gspHeaderLines, gspRowCells, gspSummaryLines } from './gsp-lines.ts';
import { gspPdf } from './gsp-pdf.ts';
import { GSP_TEXTS } from './gsp-texts.ts';
import { gspWarehouse, withWarehouseAddress } from './gsp-place.ts';
import type { Geocoder } from '../geocode/service.ts';
import { gspReadings } from './gsp-data.ts';
import { gspRecordId, type SignatureRow } from '@iotc/shared/signature';
import { signaturesOfRecord } from '../signature/service.ts';

const isoRow = (r: GspSlotRow) => ({
  time: new Date(r.start).toISOString(),
  end: new Date(r.end).toISOString(),
  temperature: r.temp,
  humidity: r.humidity,
  inRange: r.inRange,
  fine: r.fine,
});

/** The geocoder's batch helper (modules/geocode): the warehouse's address in the files where none is stored. */
export interface GspOptions {
  geocoder?: Pick<Geocoder, 'reverseMany'>;
}

export function gspService(db: Db, opts: GspOptions = {}) {
  async function report(caller: Caller, q: GspReportQuery, tz: string): Promise<GspReport> {
    const [row] = await db.select({ a: assets, orgName: orgs.name }).from(assets).innerJoin(orgs, eq(orgs.id, assets.orgId)).where(eq(assets.id, q.assetId));
    if (!row || !caller.scope.has(row.a.orgId)) throw new AppError(404, 'NOT_FOUND');
    const a = row.a;
    if (!(GSP_ASSET_KINDS as readonly string[]).includes(a.kind)) throw new AppError(400, 'GSP_ASSET_KIND');
    const mode = gspMode(a.kind);
    const days = gspDays(q.period, q.date, tz);
    const from = days[0]!.from;
    const to = days[days.length - 1]!.to;
    const now = Date.now();

    const { readings, devices: deviceList } = await gspReadings(db, a.id, from, to);

    const limits = { tempMin: a.tempMin, tempMax: a.tempMax, humidityMin: a.humidityMin, humidityMax: a.humidityMax };
    const baseMin = GSP_INTERVAL_MIN[mode];
    const perDay = days.map((d) => ({ date: d.date, rows: gspRows(readings, limits, d.from, d.to, baseMin, now) }));
    const all = perDay.flatMap((d) => d.rows);
    const shown = q.period === 'day' ? all : all.filter((r) => r.fine);
    return {
      orgName: row.orgName,
      asset: { id: a.id, code: a.code, name: a.name, kind: a.kind as GspAssetKind },
      mode,
      devices: [...deviceList].map(([deviceId, name]) => ({ deviceId, name })),
      period: q.period,
      date: q.date,
      timezone: tz,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      limits,
      intervals: { baseMin, excursionMin: GSP_INTERVAL_MIN.excursion },
      rows: shown.slice(0, MAX_GSP_ROWS).map(isoRow),
      rowsTruncated: shown.length > MAX_GSP_ROWS,
      days: q.period === 'month' ? perDay.map((d) => ({ date: d.date, summary: gspSummary(d.rows) })) : [],
      summary: gspSummary(all),
      warehouse: await gspWarehouse(db, a.id),
      generatedAt: new Date(now).toISOString(),
    };
  }

  return {
    report,
    async file(caller: Caller, q: GspReportQuery, format: 'pdf' | 'xlsx', lang: Lang, tz: string): Promise<ExportFile> {
      const r = await withWarehouseAddress(await report(caller, q, tz), lang, opts.geocoder);
      const name = `${GSP_TEXTS[lang].fileName}-${r.asset.code}-${r.date}`;
      // The record's electronic signatures in place of the blank lines (those of this day cut in this time zone).
      const signed = await signaturesOfRecord(db, 'asset_gsp_record', gspRecordId(q, tz));
      if (format === 'xlsx') return { contentType: XLSX_TYPE, filename: `${name}.xlsx`, body: await gspXlsx(r, lang, signed) };
      return { contentType: 'application/pdf', filename: `${name}.pdf`, body: await gspPdf(r, lang, signed) };
    },
  };
}

export type GspService = ReturnType<typeof gspService>;

const OUT_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFF1F0' } };

async function gspXlsx(r: GspReport, lang: Lang, signed: readonly SignatureRow[]): Promise<Buffer> {
  const x = GSP_TEXTS[lang];
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(x.sheetRecord);
  sheet.columns = [{ width: 24 }, { width: 18 }, { width: 16 }, { width: 16 }];
  sheet.addRow([`${x.title} · ${r.period === 'day' ? x.daily : x.monthly} · ${r.date}`]).font = { bold: true, size: 14 };
  for (const [k, v] of gspHeaderLines(r, lang)) sheet.addRow([k, v]).getCell(1).font = { bold: true };
  sheet.addRow([]);
  sheet.addRow([r.period === 'day' ? x.sectionTable : x.sectionExcursions]).font = { bold: true };
  sheet.addRow([x.time, x.temperature, x.humidity, x.inRange]).font = { bold: true };
  for (const row of r.rows) {
    const cells = gspRowCells(row, r, lang);
    const added = sheet.addRow([cells[0], row.temperature ?? cells[1], row.humidity ?? cells[2], cells[3]]);
    if (row.inRange === false) added.eachCell((c) => (c.fill = OUT_FILL));
  }
  if (r.rowsTruncated) sheet.addRow([x.truncated(r.rows.length)]);
  sheet.addRow([]);
  sheet.addRow([x.sectionSummary]).font = { bold: true };
  for (const [k, v] of gspSummaryLines(r.summary, lang, r.intervals.baseMin)) sheet.addRow([k, v]).getCell(1).font = { bold: true };
  sheet.addRow([]);
  for (const [meaning, who] of [
    ['responsible', x.recordedBy],
    ['reviewed', x.reviewedBy],
  ] as const) {
    const mine = signed.filter((s) => s.meaning === meaning);
    if (mine.length === 0) sheet.addRow([`${who}:`, '', `${x.signDate}:`, '']);
    for (const s of mine) {
      sheet.addRow([`${who}:`, `${s.signerName} (${s.signerAccount})`, formatInstant(new Date(s.signedAt), r.timezone), `${x.meanings[s.meaning]} · ${x.hash} ${s.recordHash.slice(0, 16)}… · ${s.matches ? x.signatureMatches : x.signatureMismatch}`]);
    }
  }
  if (r.period === 'month') {
    const days = book.addWorksheet(x.sheetDays);
    days.columns = gspDayHeaders(lang).map((header, i) => ({ header, width: i === 0 ? 14 : i >= 7 ? 18 : 10 }));
    days.getRow(1).font = { bold: true };
    for (const d of r.days) {
      const added = days.addRow(gspDayCells(d, lang));
      if (d.summary.outOfRangeRows > 0) added.eachCell((c) => (c.fill = OUT_FILL));
    }
    days.views = [{ state: 'frozen', ySplit: 1 }];
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
