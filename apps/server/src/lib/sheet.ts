// Spreadsheets in and out: a list of columns (field and header in both languages) serves the
// export, the import template and the import; an uploaded workbook is read into rows keyed by
// field, whichever language its header row is in.
import ExcelJS from 'exceljs';
import type { I18nText, Lang } from '@iotc/shared/i18n';
import { AppError } from './errors.ts';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface SheetColumn {
  /** The body field (`attrs.x` for a kind's own field). */
  field: string;
  header: I18nText;
  width?: number;
}

/** An empty workbook with the header row in the user's language. */
export async function templateWorkbook(columns: SheetColumn[], lang: Lang, sheetName: I18nText): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(sheetName[lang]);
  sheet.columns = columns.map((c) => ({ header: c.header[lang], width: c.width ?? 16 }));
  sheet.getRow(1).font = { bold: true };
  return Buffer.from(await book.xlsx.writeBuffer());
}

export interface SheetRow {
  /** The row number in the sheet (the header is row 1). */
  row: number;
  values: Record<string, string>;
}

/** Most data rows one import takes. */
export const MAX_IMPORT_ROWS = 5000;

/** The data rows of the first sheet as field -> text; headers in either language are recognised. */
export async function readWorkbook(body: Buffer, columns: SheetColumn[]): Promise<SheetRow[]> {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(body as unknown as ArrayBuffer);
  } catch {
    throw new AppError(400, 'IMPORT_FILE_INVALID');
  }
  const sheet = book.worksheets[0];
  if (!sheet) throw new AppError(400, 'IMPORT_FILE_INVALID');
  const byHeader = new Map<string, string>();
  for (const c of columns) {
    byHeader.set(c.header.zh.trim().toLowerCase(), c.field);
    byHeader.set(c.header.en.trim().toLowerCase(), c.field);
  }
  const fieldAt = new Map<number, string>();
  sheet.getRow(1).eachCell((cell, col) => {
    const field = byHeader.get(cellText(cell.value).toLowerCase());
    if (field) fieldAt.set(col, field);
  });
  if (!fieldAt.size) throw new AppError(400, 'IMPORT_FILE_INVALID');
  const rows: SheetRow[] = [];
  sheet.eachRow((r, number) => {
    if (number === 1) return;
    const values: Record<string, string> = {};
    r.eachCell((cell, col) => {
      const field = fieldAt.get(col);
      if (field) values[field] = cellText(cell.value);
    });
    if (Object.values(values).some((v) => v !== '')) rows.push({ row: number, values });
  });
  if (rows.length > MAX_IMPORT_ROWS) {
    throw new AppError(400, 'VALIDATION', { en: `at most ${MAX_IMPORT_ROWS} rows per import`, zh: `每次导入最多 ${MAX_IMPORT_ROWS} 行` });
  }
  return rows;
}

/** A cell as text: numbers as typed, rich text joined, formulas by their result. */
function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') {
    if (v instanceof Date) return v.toISOString();
    if ('richText' in v) return v.richText.map((t) => t.text).join('').trim();
    if ('result' in v) return cellText(v.result as ExcelJS.CellValue);
    if ('text' in v) return String(v.text).trim();
    return '';
  }
  return String(v).trim();
}

/** A sheet row's fields as a request body (`attrs.x` fields nested). */
export function bodyOf(values: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const attrs: Record<string, string> = {};
  for (const [field, value] of Object.entries(values)) {
    if (field.startsWith('attrs.')) attrs[field.slice(6)] = value;
    else body[field] = value;
  }
  body.attrs = attrs;
  return body;
}
