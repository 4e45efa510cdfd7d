// The GSP temperature and humidity record as a PDF (A4, the PDF kit of lib/pdf-kit.ts): header
// block, for a month the daily summary, the table of recorded values with out-of-range rows
// shaded, the summary, and the lines for the signatures of the recorder and the reviewer.
import type { Lang } from '@iotc/shared/i18n';
import type { GspReport } from '@iotc/shared/gsp-report';
import { formatInstant } from '../../lib/export.ts';
import { COLORS, CONTENT_W, ensureSpace, facts, heading, note, openDocument, PAGE, table, titleBlock, type Doc } from '../../lib/pdf-kit.ts';
import { gspDayCells, gspDayHeaders, gspHeaderLines, gspRowCells, gspSummaryLines } from './gsp-lines.ts';
import { GSP_TEXTS } from './gsp-texts.ts';

/** One line per row, out-of-range rows in red on a red band. */
function gspTable(doc: Doc, widths: number[], headers: string[], rows: { cells: string[]; out: boolean }[], fontSize = 8.5) {
  table(
    doc,
    headers.map((title, i) => ({ title, width: widths[i]! })),
    rows.map((r) => (r.out ? { cells: r.cells, color: COLORS.alarm, band: COLORS.band } : { cells: r.cells })),
    { fontSize, rowHeight: 13, padding: { x: 2, y: 1 }, headerRule: true, repeatHeader: false },
  );
}

export async function gspPdf(r: GspReport, lang: Lang): Promise<Buffer> {
  const x = GSP_TEXTS[lang];
  const { doc, finish } = openDocument({ title: `${x.title} ${r.asset.code} ${r.date}`, lang });
  titleBlock(doc, { title: x.title, subtitle: `${r.period === 'day' ? x.daily : x.monthly} · ${r.date}` });

  heading(doc, x.sectionHeader);
  facts(doc, gspHeaderLines(r, lang));

  if (r.period === 'month') {
    heading(doc, x.sectionDays, 60);
    const w = [62, 44, 44, 44, 44, 44, 44, 56, 70];
    gspTable(
      doc,
      [...w, CONTENT_W - w.reduce((s, v) => s + v, 0)],
      gspDayHeaders(lang),
      r.days.map((d) => ({ cells: gspDayCells(d, lang), out: d.summary.outOfRangeRows > 0 })),
      7.5,
    );
  }

  heading(doc, r.period === 'day' ? x.sectionTable : x.sectionExcursions, 60);
  if (r.rows.length === 0 && r.period === 'month') note(doc, x.noExcursions);
  else {
    const w = CONTENT_W / 4;
    gspTable(
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

  return finish((page, pages) => `${r.asset.code} · ${r.date} · ${x.generatedAt} ${formatInstant(new Date(r.generatedAt), r.timezone)} · ${x.page(page, pages)}`);
}
