// The one way the server makes a PDF (PDFKit, A4): a document opened with the bundled font and
// the product title in its metadata, the blocks every report is built of (title, section
// heading, label-value facts, a table paged across pages, an SVG drawing) and the footer with
// the page numbers, set on every page once the content is done. Text is set in Noto Sans SC
// Regular (SIL OFL 1.1; the one file kept in apps/server/assets/fonts with its licence), which
// holds the Chinese and the Latin glyphs; PDFKit embeds only the glyphs used. The words come from
// the callers (each module has its texts); nothing here knows a report.
import { readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import { headerFromLang, PRODUCT_TITLE, type Lang } from '@iotc/shared/i18n';

const FONT_FILE = new URL('../../assets/fonts/NotoSansSC-Regular.ttf', import.meta.url);
/** The font's name inside every document (and what SVG text is set in). */
const FONT = 'noto';
let fontBytes: Buffer | null = null;
/** The TTF, read once (10 MB; PDFKit subsets it per document). */
function font(): Buffer {
  fontBytes ??= readFileSync(FONT_FILE);
  return fontBytes;
}

export const PAGE = { width: 595.28, height: 841.89, margin: 40 };
export const CONTENT_W = PAGE.width - 2 * PAGE.margin;
/** Content stops this far above the page's end; the footer sits below. */
const BOTTOM = PAGE.height - PAGE.margin - 20;
export const COLORS = { text: '#1f1f1f', muted: '#8c8c8c', line: '#d9d9d9', alarm: '#f5222d', band: '#fff1f0', link: '#1677ff' };

export type Doc = PDFKit.PDFDocument;

export interface PdfFile {
  doc: Doc;
  /** Sets `footer(page, pages)` at the foot of every page (pages counted from 1), ends the document and gives its bytes. */
  finish(footer: (page: number, pages: number) => string): Promise<Buffer>;
}

/** An A4 document in `lang`, its font set, its title (and subject) in the metadata, the product as its author. */
export function openDocument(o: { title: string; lang: Lang; subject?: string }): PdfFile {
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    bufferPages: true,
    lang: headerFromLang(o.lang),
    info: { Title: o.title, Author: PRODUCT_TITLE[o.lang], ...(o.subject ? { Subject: o.subject } : {}) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont(FONT, font());
  doc.font(FONT);
  return {
    doc,
    finish(footer) {
      const range = doc.bufferedPageRange();
      for (let i = range.start; i < range.start + range.count; i++) {
        doc.switchToPage(i);
        // The footer sits in the bottom margin: without it PDFKit would start a new page for it.
        doc.page.margins.bottom = 0;
        doc
          .fontSize(8)
          .fillColor(COLORS.muted)
          .text(footer(i - range.start + 1, range.count), PAGE.margin, PAGE.height - PAGE.margin + 8, { width: CONTENT_W, align: 'right', lineBreak: false });
      }
      doc.end();
      return done;
    },
  };
}

/** A new page when `height` points do not fit above the footer any more. */
export function ensureSpace(doc: Doc, height: number) {
  if (doc.y + height > BOTTOM) doc.addPage();
}

/** The document's title and a muted line under it, at the top of the first page. */
export function titleBlock(doc: Doc, o: { title: string; subtitle: string; size?: number; align?: 'left' | 'center' }) {
  const align = o.align ?? 'center';
  doc.fontSize(o.size ?? 18).fillColor(COLORS.text).text(o.title, PAGE.margin, PAGE.margin, { width: CONTENT_W, align });
  doc.fontSize(10).fillColor(COLORS.muted).text(o.subtitle, PAGE.margin, doc.y, { width: CONTENT_W, align });
}

/** A section title, on the page where at least `keep` points of its content fit too. */
export function heading(doc: Doc, text: string, keep = 40) {
  ensureSpace(doc, keep + 30);
  doc.moveDown(0.6).fontSize(13).fillColor(COLORS.text).text(text, PAGE.margin, doc.y);
  const y = doc.y + 2;
  doc.moveTo(PAGE.margin, y).lineTo(PAGE.margin + CONTENT_W, y).lineWidth(0.5).strokeColor(COLORS.line).stroke();
  doc.y = y + 6;
}

/** Label and value rows, the label column a third of the width. */
export function facts(doc: Doc, lines: [string, string][]) {
  const labelW = CONTENT_W * 0.36;
  const valueW = CONTENT_W - labelW - 8;
  doc.fontSize(9.5);
  for (const [label, value] of lines) {
    const h = Math.max(doc.heightOfString(label, { width: labelW }), doc.heightOfString(value, { width: valueW })) + 3;
    ensureSpace(doc, h);
    const y = doc.y;
    doc.fillColor(COLORS.muted).text(label, PAGE.margin, y, { width: labelW });
    doc.fillColor(COLORS.text).text(value, PAGE.margin + labelW + 8, y, { width: valueW });
    doc.y = y + h;
  }
}

/** A muted line of text, such as "no data" in place of a table. */
export function note(doc: Doc, text: string, size = 9.5) {
  doc.fontSize(size).fillColor(COLORS.muted).text(text, PAGE.margin, doc.y);
}

/** An SVG (an ECharts chart, a QR code) drawn into the box; its text is set in the document's font. */
export function drawSvg(doc: Doc, svg: string, x: number, y: number, width: number, height: number) {
  SVGtoPDF(doc, svg, x, y, { width, height, assumePt: true, fontCallback: () => FONT });
}

/** The text cut to the width with an ellipsis (PDFKit's own ellipsis still wraps Chinese text). */
export function fit(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

export interface TableColumn {
  title: string;
  /** Points; the widths of a table add up to CONTENT_W or less. */
  width: number;
}

export interface TableRow {
  cells: string[];
  /** Text colour (default COLORS.text). */
  color?: string;
  /** A background colour behind the row. */
  band?: string;
  /** A dark rule above the row (a totals row). */
  ruleAbove?: boolean;
}

export interface TableOptions {
  fontSize?: number;
  /**
   * Rows of one line this tall, their text cut to the column with an ellipsis. Without it a row
   * is as tall as its tallest wrapped cell. The header row always wraps (and is never shorter).
   */
  rowHeight?: number;
  /** The text's inset in its cell: `x` on each side, `y` above and below. */
  padding?: { x: number; y: number };
  /** A line under the header row. */
  headerRule?: boolean;
  /** A thin line under every row. */
  rowRules?: boolean;
  /** The header row again at the top of every page the table continues on (default true). */
  repeatHeader?: boolean;
}

/** A table from the current position, breaking to new pages above the footer; the header is kept with the first row. */
export function table(doc: Doc, columns: TableColumn[], rows: TableRow[], o: TableOptions = {}) {
  const size = o.fontSize ?? 8.5;
  const pad = o.padding ?? { x: 2, y: 2 };
  const textW = (i: number) => columns[i]!.width - 2 * pad.x;
  const wrappedHeight = (cells: string[]) => Math.max(...cells.map((c, i) => doc.heightOfString(c, { width: textW(i) }))) + 2 * pad.y;
  const draw = (r: TableRow, h: number, wrap: boolean) => {
    const y = doc.y;
    if (r.band) doc.rect(PAGE.margin, y - 1, CONTENT_W, h).fill(r.band);
    let cx = PAGE.margin;
    doc.fontSize(size);
    r.cells.forEach((c, i) => {
      const color = doc.fillColor(r.color ?? COLORS.text);
      if (wrap) color.text(c, cx + pad.x, y + pad.y, { width: textW(i) });
      else color.text(fit(doc, c, textW(i)), cx + pad.x, y + pad.y, { width: textW(i), lineBreak: false });
      cx += columns[i]!.width;
    });
    if (r.ruleAbove) doc.moveTo(PAGE.margin, y - 1).lineTo(PAGE.margin + CONTENT_W, y - 1).lineWidth(0.5).strokeColor(COLORS.text).stroke();
    doc.y = y + h;
    if (o.rowRules) doc.moveTo(PAGE.margin, doc.y).lineTo(PAGE.margin + CONTENT_W, doc.y).lineWidth(0.3).strokeColor(COLORS.line).stroke();
  };
  const header: TableRow = { cells: columns.map((c) => c.title), color: COLORS.muted };
  const headerHeight = () => {
    doc.fontSize(size);
    return Math.max(wrappedHeight(header.cells), o.rowHeight ?? 0);
  };
  const rowHeight = (r: TableRow) => {
    doc.fontSize(size);
    return o.rowHeight ?? wrappedHeight(r.cells);
  };
  const drawHeader = () => {
    draw(header, headerHeight(), true);
    if (o.headerRule) doc.moveTo(PAGE.margin, doc.y - 1).lineTo(PAGE.margin + CONTENT_W, doc.y - 1).lineWidth(0.5).strokeColor(COLORS.line).stroke();
  };

  ensureSpace(doc, headerHeight() + (rows[0] ? rowHeight(rows[0]) : 0));
  drawHeader();
  for (const r of rows) {
    const h = rowHeight(r);
    if (doc.y + h > BOTTOM) {
      doc.addPage();
      if (o.repeatHeader ?? true) drawHeader();
    }
    draw(r, h, o.rowHeight === undefined);
  }
}
