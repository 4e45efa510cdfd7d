// The GSP temperature and humidity record as a PDF (A4, PDFKit, the font and helpers of pdf.ts):
// header block, for a month the daily summary, the table of recorded values with out-of-range rows
// shaded, the summary, and the lines for the signatures of the recorder and the reviewer.
import PDFDocument from 'pdfkit';
import type { Lang } from '@iotc/shared/i18n';
import type { GspReport } from '@iotc/shared/gsp-report';
import { formatInstant } from '../../lib/export.ts';
import { COLORS, CONTENT_W, ensureSpace, facts, font, heading, PAGE, type Doc } from './pdf.ts';
import { gspDayCells, gspDayHeaders, gspHeaderLines, gspRowCells, gspSummaryLines } from './gsp-lines.ts';
import { GSP_TEXTS } from './gsp-texts.ts';

const ROW_H = 13;

function table(doc: Doc, widths: number[], header: string[], rows: { cells: string[]; out: boolean }[], size = 8.5) {
  const line = (cells: string[], color: string, band: boolean) => {
    ensureSpace(doc, ROW_H);
    const y = doc.y;
    if (band) doc.rect(PAGE.margin, y - 1, CONTENT_W, ROW_H).fill(COLORS.band);
    let cx = PAGE.margin;
    doc.fontSize(size);
    cells.forEach((c, i) => {
      doc.fillColor(color).text(c, cx + 2, y + 1, { width: widths[i]! - 4, lineBreak: false, ellipsis: true });
      cx += widths[i]!;
    });
    doc.y = y + ROW_H;
  };
  line(header, COLORS.muted, false);
  doc
    .moveTo(PAGE.margin, doc.y - 1)
    .lineTo(PAGE.margin + CONTENT_W, doc.y - 1)
    .lineWidth(0.5)
    .strokeColor(COLORS.line)
    .stroke();
  for (const r of rows) line(r.cells, r.out ? COLORS.alarm : COLORS.text, r.out);
}

export async function gspPdf(r: GspReport, lang: Lang): Promise<Buffer> {
  const x = GSP_TEXTS[lang];
  const doc = new PDFDocument({ size: 'A4', margin: PAGE.margin, bufferPages: true, info: { Title: `${x.title} ${r.asset.code} ${r.date}`, Author: 'IoT Cloud Console' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('noto', font());
  doc.font('noto');

  doc.fontSize(18).fillColor(COLORS.text).text(x.title, PAGE.margin, PAGE.margin, { width: CONTENT_W, align: 'center' });
  doc.fontSize(10).fillColor(COLORS.muted).text(`${r.period === 'day' ? x.daily : x.monthly} · ${r.date}`, { width: CONTENT_W, align: 'center' });

  heading(doc, x.sectionHeader);
  facts(doc, gspHeaderLines(r, lang));

  if (r.period === 'month') {
    heading(doc, x.sectionDays, 60);
    const w = [62, 44, 44, 44, 44, 44, 44, 56, 70];
    table(
      doc,
      [...w, CONTENT_W - w.reduce((s, v) => s + v, 0)],
      gspDayHeaders(lang),
      r.days.map((d) => ({ cells: gspDayCells(d, lang), out: d.summary.outOfRangeRows > 0 })),
      7.5,
    );
  }

  heading(doc, r.period === 'day' ? x.sectionTable : x.sectionExcursions, 60);
  if (r.rows.length === 0 && r.period === 'month') doc.fontSize(9.5).fillColor(COLORS.muted).text(x.noExcursions, PAGE.margin, doc.y);
  else {
    const w = CONTENT_W / 4;
    table(
      doc,
      [w, w, w, w],
      [x.time, x.temperature, x.humidity, x.inRange],
      r.rows.map((row) => ({ cells: gspRowCells(row, r, lang), out: row.inRange === false })),
    );
    if (r.rowsTruncated) doc.fontSize(8.5).fillColor(COLORS.muted).text(x.truncated(r.rows.length), PAGE.margin, doc.y + 2);
  }

  heading(doc, x.sectionSummary, 150);
  facts(doc, gspSummaryLines(r.summary, lang, r.intervals.baseMin));

  ensureSpace(doc, 60);
  doc.y += 24;
  const y = doc.y;
  const half = CONTENT_W / 2;
  doc.fontSize(10).fillColor(COLORS.text);
  for (const [i, who] of [x.recordedBy, x.reviewedBy].entries()) {
    doc.text(`${who}: ______________    ${x.signDate}: ____________`, PAGE.margin + i * half, y, { width: half, lineBreak: false });
  }
  doc.y = y + 20;

  const pages = doc.bufferedPageRange();
  for (let i = pages.start; i < pages.start + pages.count; i++) {
    doc.switchToPage(i);
    // The footer sits in the bottom margin: without it PDFKit would start a new page for it.
    doc.page.margins.bottom = 0;
    doc
      .fontSize(8)
      .fillColor(COLORS.muted)
      .text(`${r.asset.code} · ${r.date} · ${x.generatedAt} ${formatInstant(new Date(r.generatedAt), r.timezone)} · ${x.page(i + 1, pages.count)}`, PAGE.margin, PAGE.height - PAGE.margin + 8, {
        width: CONTENT_W,
        align: 'right',
        lineBreak: false,
      });
  }
  doc.end();
  return done;
}
