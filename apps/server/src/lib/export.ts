// Export of a list to CSV or Excel in the user's language and time zone: headers in the
// request's language, instants formatted YYYY-MM-DD HH:mm:ss in the request's Timezone. Every
// CSV cell goes through csvCell, so user text never reaches a spreadsheet as a formula.
import ExcelJS from 'exceljs';
import { stringify } from 'csv-stringify/sync';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
import { isTimeZone } from '@iotc/shared/validation';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { I18nText, Lang } from '@iotc/shared/i18n';
import type { ExportFormat } from '@iotc/shared/list';
import { XLSX_TYPE } from './sheet.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

export interface ExportColumn<T> {
  header: I18nText;
  value: (row: T) => string | number | Date | null | undefined;
  /** Excel column width in characters. */
  width?: number;
}

export interface ExportFile {
  contentType: string;
  filename: string;
  body: Buffer;
}

/** The request's IANA time zone when the runtime knows it, else UTC. */
export function validTimezone(value: string | undefined): string {
  return value && isTimeZone(value) ? value : 'UTC';
}

/** The time zone of a request's `Timezone` header (UTC when absent or unknown). */
export function requestTimezone(req: { headers: Record<string, string | string[] | undefined> }): string {
  const h = req.headers['timezone'];
  return validTimezone(Array.isArray(h) ? h[0] : h);
}

export function formatInstant(d: Date, tz: string): string {
  return dayjs(d).tz(tz).format(DATETIME_FORMAT);
}

/**
 * First characters a spreadsheet takes as the start of a formula: OWASP's list (= + - @, tab,
 * carriage return) and the full-width forms some spreadsheet programs read the same way.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A plain decimal number such as "-18.5" or "1e-3": a value, not a formula. */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A CSV cell that a spreadsheet reads as data (OWASP CSV injection): text starting like a
 * formula gets a leading single quote; numbers, and text that is a plain number, stay as they are.
 * Excel files need none of this: their cells are typed, text is never evaluated.
 */
export function csvCell(value: string | number | null | undefined): string | number {
  if (typeof value !== 'string') return value ?? '';
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

export async function exportRows<T>(opts: {
  format: ExportFormat;
  lang: Lang;
  timezone: string;
  /** File name without extension, in the user's language. */
  name: I18nText;
  sheet: I18nText;
  columns: ExportColumn<T>[];
  rows: T[];
}): Promise<ExportFile> {
  const { lang, columns } = opts;
  const cell = (v: ReturnType<ExportColumn<T>['value']>) => (v instanceof Date ? formatInstant(v, opts.timezone) : (v ?? ''));
  const stamp = dayjs().tz(opts.timezone).format('YYYYMMDD-HHmmss');
  const base = `${opts.name[lang]}-${stamp}`;

  if (opts.format === 'csv') {
    const records = [columns.map((c) => c.header[lang]), ...opts.rows.map((r) => columns.map((c) => cell(c.value(r))))].map((record) => record.map(csvCell));
    // The byte-order mark makes Excel read the UTF-8 (Chinese) text correctly.
    const body = Buffer.concat([Buffer.from('\ufeff'), Buffer.from(stringify(records))]);
    return { contentType: 'text/csv; charset=utf-8', filename: `${base}.csv`, body };
  }

  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(opts.sheet[lang]);
  sheet.columns = columns.map((c) => ({ header: c.header[lang], width: c.width ?? 18 }));
  sheet.getRow(1).font = { bold: true };
  for (const r of opts.rows) sheet.addRow(columns.map((c) => cell(c.value(r))));
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  const body = Buffer.from(await book.xlsx.writeBuffer());
  return {
    contentType: XLSX_TYPE,
    filename: `${base}.xlsx`,
    body,
  };
}

/** Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
