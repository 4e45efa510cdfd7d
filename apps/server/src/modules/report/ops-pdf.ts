// The operations reports (alarm, online rate, mileage) as PDF and Excel: one layout for all three.
// The PDF is A4 (PDFKit, the Noto Sans SC font and helpers of pdf.ts): title, the facts block
// (organisation, period, dates, time zone, generated), an optional chart (ECharts SVG), optional
// per-day table, then the details table paged with its header repeated; a footer on every page.
// The Excel file has the same facts, the table with its per-day columns, and a per-day sheet.
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import ExcelJS from 'exceljs';
import type { Lang } from '@iotc/shared/i18n';
import type { ReportPeriod } from '@iotc/shared/ops-report';
import { formatInstant } from '../../lib/export.ts';
import { COLORS, CONTENT_W, facts, font, heading, PAGE, type Doc } from './pdf.ts';
import { OPS_TEXTS } from './ops-texts.ts';

export interface OpsTable {
  headers: string[];
  /** Relative widths (scaled to the page width in the PDF; Excel characters ÷ 2). */
  widths: number[];
  rows: (string | number | null)[][];
  /** A last row in bold (the totals). */
  totals?: (string | number | null)[];
}

export interface OpsDocument {
  lang: Lang;
  title: string;
  /** Name in the PDF's info and the footer. */
  docName: string;
  orgName: string;
  period: ReportPeriod;
  start: string;
  end: string;
  timezone: string;
  generatedAt: string;
  /** More facts after the standard ones. */
  extraFacts?: [string, string][];
  chartSvg?: { svg: string; height: number; legend?: { label: string; color: string }[] } | null;
  days?: OpsTable;
  table: OpsTable;
  /** Excel only: the main sheet holds these columns too (per-day values). */
  xlsxExtra?: { headers: string[]; rows: (string | number | null)[][] };
  sheetName: string;
  daysSheetName?: string;
}

const ROW_H = 14;
const BOTTOM = PAGE.height - PAGE.margin - 20;

/** The period as written in the files: the day, or first ~ last day. */
export function periodText(start: string, end: string): string {
  return start === end ? start : `${start} ~ ${end}`;
}

/** The file name's date part: the day, the month YYYY-MM, or the week's first and last day. */
export function fileDate(period: ReportPeriod, start: string, end: string): string {
  return period === 'day' ? start : period === 'month' ? start.slice(0, 7) : `${start}_${end}`;
}

function headerLines(d: OpsDocument): [string, string][] {
  const x = OPS_TEXTS[d.lang];
  return [
    [x.org, d.orgName],
    [x.period, x.periods[d.period]],
    [x.range, periodText(d.start, d.end)],
    [x.timezone, d.timezone],
    [x.generatedAt, formatInstant(new Date(d.generatedAt), d.timezone)],
    ...(d.extraFacts ?? []),
  ];
}

const cellText = (v: string | number | null) => (v === null ? '—' : String(v));

/** The text cut to the width with an ellipsis (PDFKit's own ellipsis still wraps Chinese text). */
function fit(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** A duration for a table cell: hours and minutes from an hour up, else minutes and seconds. */
export function shortDuration(seconds: number, lang: Lang): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (lang === 'zh') return h ? `${h}小时${pad(m)}分` : m ? `${m}分${pad(r)}秒` : `${r}秒`;
  return h ? `${h} h ${pad(m)} min` : m ? `${m} min ${pad(r)} s` : `${r} s`;
}

function table(doc: Doc, t: OpsTable, size = 8) {
  const sum = t.widths.reduce((s, w) => s + w, 0);
  const widths = t.widths.map((w) => (w / sum) * CONTENT_W);
  const header = () => {
    const y = doc.y;
    doc.fontSize(size);
    // The header may wrap to two lines: its height is the tallest cell.
    const h = Math.max(...t.headers.map((c, i) => doc.heightOfString(c, { width: widths[i]! - 4 }))) + 4;
    let cx = PAGE.margin;
    t.headers.forEach((c, i) => {
      doc.fillColor(COLORS.muted).text(c, cx + 2, y + 1, { width: widths[i]! - 4 });
      cx += widths[i]!;
    });
    doc.y = y + h;
    doc.moveTo(PAGE.margin, doc.y - 1).lineTo(PAGE.margin + CONTENT_W, doc.y - 1).lineWidth(0.5).strokeColor(COLORS.line).stroke();
  };
  const line = (cells: (string | number | null)[], bold: boolean, band: boolean) => {
    if (doc.y + ROW_H > BOTTOM) {
      doc.addPage();
      doc.y = PAGE.margin;
      header();
    }
    const y = doc.y;
    if (band) doc.rect(PAGE.margin, y - 1, CONTENT_W, ROW_H).fill('#fafafa');
    let cx = PAGE.margin;
    doc.fontSize(size);
    cells.forEach((c, i) => {
      doc.fillColor(COLORS.text).text(fit(doc, cellText(c), widths[i]! - 4), cx + 2, y + 2, { width: widths[i]! - 4, lineBreak: false });
      cx += widths[i]!;
    });
    if (bold) doc.moveTo(PAGE.margin, y - 1).lineTo(PAGE.margin + CONTENT_W, y - 1).lineWidth(0.5).strokeColor(COLORS.text).stroke();
    doc.y = y + ROW_H;
  };
  if (doc.y + 2 * ROW_H + 10 > BOTTOM) doc.addPage();
  header();
  t.rows.forEach((r, i) => line(r, false, i % 2 === 1));
  if (t.totals) line(t.totals, true, false);
}

export async function opsPdf(d: OpsDocument): Promise<Buffer> {
  const x = OPS_TEXTS[d.lang];
  const doc = new PDFDocument({ size: 'A4', margin: PAGE.margin, bufferPages: true, info: { Title: `${d.title} ${periodText(d.start, d.end)}`, Author: 'IoT Cloud Console' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('noto', font());
  doc.font('noto');

  doc.fontSize(18).fillColor(COLORS.text).text(d.title, PAGE.margin, PAGE.margin, { width: CONTENT_W, align: 'center' });
  doc.fontSize(10).fillColor(COLORS.muted).text(`${x.periods[d.period]} · ${periodText(d.start, d.end)}`, { width: CONTENT_W, align: 'center' });
  doc.moveDown(0.5);
  facts(doc, headerLines(d));

  if (d.chartSvg) {
    const h = d.chartSvg.height;
    if (doc.y + h + 40 > BOTTOM) doc.addPage();
    doc.y += 8;
    SVGtoPDF(doc, d.chartSvg.svg, PAGE.margin, doc.y, { width: CONTENT_W, height: h, assumePt: true, fontCallback: () => 'noto' });
    doc.y += h + 4;
    if (d.chartSvg.legend?.length) {
      let lx = PAGE.margin + 40;
      const ly = doc.y;
      doc.fontSize(8.5);
      for (const { label, color } of d.chartSvg.legend) {
        doc.rect(lx, ly + 1, 8, 8).fill(color);
        doc.fillColor(COLORS.text).text(label, lx + 12, ly, { lineBreak: false });
        lx += 12 + doc.widthOfString(label) + 14;
      }
      doc.y = ly + 16;
    }
  }

  if (d.days && d.days.rows.length > 1) {
    heading(doc, x.sectionDays, 60);
    table(doc, d.days);
  }

  heading(doc, x.sectionTable, 60);
  if (d.table.rows.length === 0) doc.fontSize(9.5).fillColor(COLORS.muted).text(x.noRows, PAGE.margin, doc.y);
  else table(doc, d.table);

  const pages = doc.bufferedPageRange();
  for (let i = pages.start; i < pages.start + pages.count; i++) {
    doc.switchToPage(i);
    // The footer sits in the bottom margin: without it PDFKit would start a new page for it.
    doc.page.margins.bottom = 0;
    doc
      .fontSize(8)
      .fillColor(COLORS.muted)
      .text(`${d.docName} · ${periodText(d.start, d.end)} · ${x.generatedAt} ${formatInstant(new Date(d.generatedAt), d.timezone)} · ${x.page(i + 1, pages.count)}`, PAGE.margin, PAGE.height - PAGE.margin + 8, {
        width: CONTENT_W,
        align: 'right',
        lineBreak: false,
      });
  }
  doc.end();
  return done;
}

/** The workbook: the facts, a blank row, the table (with the per-day columns) on the first sheet; the days on a second. */
export async function opsXlsx(d: OpsDocument): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(d.sheetName);
  const widths = [...d.table.widths, ...(d.xlsxExtra?.headers.map(() => 8) ?? [])];
  sheet.columns = widths.map((w) => ({ width: Math.max(8, Math.round(w / 2)) }));
  sheet.addRow([`${d.title} · ${periodText(d.start, d.end)}`]).font = { bold: true, size: 14 };
  for (const [k, v] of headerLines(d)) sheet.addRow([k, v]).getCell(1).font = { bold: true };
  sheet.addRow([]);
  const headerRow = sheet.addRow([...d.table.headers, ...(d.xlsxExtra?.headers ?? [])]);
  headerRow.font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: headerRow.number }];
  d.table.rows.forEach((r, i) => sheet.addRow([...r, ...(d.xlsxExtra?.rows[i] ?? [])]));
  if (d.table.totals) sheet.addRow(d.table.totals).font = { bold: true };
  if (d.days && d.daysSheetName) {
    const days = book.addWorksheet(d.daysSheetName);
    days.columns = d.days.headers.map((header, i) => ({ header, width: Math.max(10, Math.round(d.days!.widths[i]! / 2)) }));
    days.getRow(1).font = { bold: true };
    for (const r of d.days.rows) days.addRow(r);
    days.views = [{ state: 'frozen', ySplit: 1 }];
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
