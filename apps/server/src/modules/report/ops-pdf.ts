// The operations reports (alarm, online rate, mileage) as PDF and Excel: one layout for all three.
// The PDF is A4 (the PDF kit of lib/pdf-kit.ts): title, the facts block (organisation, period,
// dates, time zone, generated), an optional chart (ECharts SVG), optional per-day table, then the
// details table paged with its header repeated; a footer on every page.
// The Excel file has the same facts, the table with its per-day columns, and a per-day sheet.
import ExcelJS from 'exceljs';
import type { Lang } from '@iotc/shared/i18n';
import type { ReportPeriod } from '@iotc/shared/ops-report';
import { formatInstant } from '../../lib/export.ts';
import { COLORS, CONTENT_W, drawSvg, ensureSpace, facts, heading, note, openDocument, PAGE, table, titleBlock, type Doc, type TableRow } from '../../lib/pdf-kit.ts';
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

/** The widths scaled to the page; every other row banded; the totals under a rule. */
function opsTable(doc: Doc, t: OpsTable) {
  const sum = t.widths.reduce((s, w) => s + w, 0);
  const rows: TableRow[] = t.rows.map((r, i) => ({ cells: r.map(cellText), ...(i % 2 === 1 ? { band: '#fafafa' } : {}) }));
  if (t.totals) rows.push({ cells: t.totals.map(cellText), ruleAbove: true });
  table(
    doc,
    t.headers.map((title, i) => ({ title, width: (t.widths[i]! / sum) * CONTENT_W })),
    rows,
    { fontSize: 8, rowHeight: 14, padding: { x: 2, y: 2 }, headerRule: true },
  );
}

export async function opsPdf(d: OpsDocument): Promise<Buffer> {
  const x = OPS_TEXTS[d.lang];
  const { doc, finish } = openDocument({ title: `${d.title} ${periodText(d.start, d.end)}`, lang: d.lang });
  titleBlock(doc, { title: d.title, subtitle: `${x.periods[d.period]} · ${periodText(d.start, d.end)}` });
  doc.moveDown(0.5);
  facts(doc, headerLines(d));

  if (d.chartSvg) {
    const h = d.chartSvg.height;
    ensureSpace(doc, h + 40);
    doc.y += 8;
    drawSvg(doc, d.chartSvg.svg, PAGE.margin, doc.y, CONTENT_W, h);
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
    opsTable(doc, d.days);
  }

  heading(doc, x.sectionTable, 60);
  if (d.table.rows.length === 0) note(doc, x.noRows);
  else opsTable(doc, d.table);

  return finish((page, pages) => `${d.docName} · ${periodText(d.start, d.end)} · ${x.generatedAt} ${formatInstant(new Date(d.generatedAt), d.timezone)} · ${x.page(page, pages)}`);
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
