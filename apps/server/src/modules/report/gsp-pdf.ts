// The GSP temperature and humidity record as a PDF (A4, the PDF kit of lib/pdf-kit.ts): header
// block, for a month the daily summary, the table of recorded values with out-of-range rows
// shaded, the summary, and the signatures of the recorder and the reviewer: the electronic ones
// (modules/signature; name, account, time, meaning, hash prefix, whether the record still
// matches), a blank line to sign by hand for a role nobody has signed.
import type { Lang } from '@iotc/shared/i18n';
import type { GspReport } from '@iotc/shared/gsp-report';
import type { SignatureRow } from '@iotc/shared/signature';
import { formatInstant } from '../../lib/export.ts';
import { COLORS, CONTENT_W, facts, heading, note, openDocument, PAGE, table, titleBlock, type Doc } from '../../lib/pdf-kit.ts';
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

/** "Recorded by" (meaning responsible) and "Reviewed by": each signature on a line of its own, or the blank line to sign by hand. */
function signatureLines(doc: Doc, r: GspReport, lang: Lang, signed: readonly SignatureRow[]) {
  const x = GSP_TEXTS[lang];
  heading(doc, x.sectionSignatures, 60);
  const lines: [string, string][] = [];
  for (const [meaning, who] of [
    ['responsible', x.recordedBy],
    ['reviewed', x.reviewedBy],
  ] as const) {
    const mine = signed.filter((s) => s.meaning === meaning);
    if (mine.length === 0) lines.push([who, `______________    ${x.signDate}: ____________`]);
    for (const s of mine) {
      const check = s.matches ? x.signatureMatches : x.signatureMismatch;
      lines.push([who, `${s.signerName} (${s.signerAccount}) · ${formatInstant(new Date(s.signedAt), r.timezone)} · ${x.meanings[s.meaning]} · ${x.hash} ${s.recordHash.slice(0, 16)}… · ${check}`]);
    }
  }
  facts(doc, lines);
  // A changed record is flagged in red under the lines, so it is not missed on paper.
  if (signed.some((s) => !s.matches)) doc.fontSize(9).fillColor(COLORS.alarm).text(x.signatureMismatchNote, PAGE.margin, doc.y + 2, { width: CONTENT_W });
}

export async function gspPdf(r: GspReport, lang: Lang, signed: readonly SignatureRow[] = []): Promise<Buffer> {
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

  signatureLines(doc, r, lang, signed);

  return finish((page, pages) => `${r.asset.code} · ${r.date} · ${x.generatedAt} ${formatInstant(new Date(r.generatedAt), r.timezone)} · ${x.page(page, pages)}`);
}
