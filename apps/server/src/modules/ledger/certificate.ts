// A share's verification certificate: an A4 PDF (the PDF kit of lib/pdf-kit.ts) that anyone
// holding the link may download without login. It states what the share covers, the signed tree
// head and public key the records were checked against, the result of verifying every record when
// the file was made (verify.ts, the same check the public page runs), every record that failed
// with its reason, and a QR code that opens the public verification page.
import QRCode from 'qrcode';
import type { Lang } from '@iotc/shared/i18n';
import type { ShareSubject } from '@iotc/shared/ledger/api';
import type { LedgerRecord } from '@iotc/shared/ledger/leaf';
import { formatInstant } from '../../lib/export.ts';
import { COLORS, CONTENT_W, drawSvg, ensureSpace, facts, heading, note, openDocument, PAGE, table, type Doc } from '../../lib/pdf-kit.ts';
import { CERTIFICATE_TEXTS, type CertificateTexts } from './certificate-texts.ts';
import type { ShareVerification } from './shares.ts';

const QR_SIZE = 96;
const OK_COLOR = '#389e0d';
const OK_BAND = '#f6ffed';
const BAD_BAND = '#fff1f0';
const WAIT_COLOR = '#d48806';
const WAIT_BAND = '#fffbe6';

/** One failing record in a line: what it is, in the reader's time zone. */
export function recordText(r: LedgerRecord, x: CertificateTexts, tz: string): string {
  const t = (iso: string) => formatInstant(new Date(iso), tz);
  if (r.kind === 'sensor.minute') return x.sensorMinute(r.deviceId, t(r.minute).slice(0, 16));
  if (r.kind === 'alarm') return x.alarm(r.event, r.deviceId, t(r.time));
  if (r.kind === 'retention.removal') return x.removal(r.deviceId, t(r.from).slice(0, 16), t(r.to).slice(0, 16));
  const code = typeof r.fields['code'] === 'string' ? ` ${r.fields['code']}` : '';
  return `${x.custody(r.event, t(r.time))}${code}`;
}

/** The subject in a few characters: the header, the footer and the file name. */
export function subjectName(s: ShareSubject): string {
  if (s.kind === 'task') return s.code;
  if (s.kind === 'device') return s.deviceId;
  if (s.kind === 'batch') return s.batchNo;
  return s.batchNo || s.goodsName;
}

function subjectLines(v: ShareVerification, x: CertificateTexts, tz: string): [string, string][] {
  const s = v.subject;
  const lines: [string, string][] = [[x.org, v.orgName]];
  if (s.kind === 'task') {
    lines.push([x.taskCode, s.code], [x.goods, s.goodsName], [x.route, `${s.origin} → ${s.destination}`]);
  } else if (s.kind === 'device') {
    lines.push([x.deviceId, `${s.deviceId}${s.name ? ` (${s.name})` : ''}`], [x.period, `${formatInstant(new Date(s.from), tz)} ~ ${formatInstant(new Date(s.to), tz)}`]);
  } else if (s.kind === 'batch') {
    lines.push([x.batch, s.batchNo], [x.goods, s.goods.join(x.listSeparator) || '—'], [x.batchRecords, String(s.records)]);
  } else {
    lines.push(
      [x.warehouseRecord, `${x.directions[s.direction]} · ${formatInstant(new Date(s.time), tz)}`],
      [x.batch, s.batchNo || '—'],
      [x.goods, s.goodsName],
      [x.warehouse, s.warehouse],
    );
  }
  lines.push([x.expires, formatInstant(new Date(v.expiresAt), tz)]);
  return lines;
}

function banner(doc: Doc, v: ShareVerification, x: CertificateTexts) {
  const bad = v.failures.length;
  const [text, color, band] =
    v.total === 0
      ? [x.emptyBanner, COLORS.muted, '#fafafa']
      : bad > 0
        ? [x.failedBanner(bad, v.total), COLORS.alarm, BAD_BAND]
        : v.verified === 0
          ? [x.pendingBanner(v.pending), WAIT_COLOR, WAIT_BAND]
          : v.removed > 0
            ? [x.verifiedRemovedBanner(v.verified, v.removed), OK_COLOR, OK_BAND]
            : [x.verifiedBanner(v.verified), OK_COLOR, OK_BAND];
  const y = doc.y;
  doc.fontSize(12.5);
  const h = doc.heightOfString(text, { width: CONTENT_W - 24 }) + 16;
  doc.rect(PAGE.margin, y, CONTENT_W, h).fill(band);
  doc.rect(PAGE.margin, y, 4, h).fill(color);
  doc.fillColor(color).text(text, PAGE.margin + 14, y + 8, { width: CONTENT_W - 24 });
  doc.y = y + h + 4;
  if (v.pending > 0 && (bad > 0 || v.verified > 0)) {
    doc.fontSize(9).fillColor(WAIT_COLOR).text(x.pendingBanner(v.pending), PAGE.margin, doc.y);
  }
}

function failureTable(doc: Doc, v: ShareVerification, x: CertificateTexts, tz: string) {
  if (v.failures.length === 0) {
    if (v.total > 0) doc.fontSize(9.5).fillColor(COLORS.muted).text(x.noFailures, PAGE.margin, doc.y + 2, { width: CONTENT_W });
    return;
  }
  const columns = [
    { title: x.colIndex, width: 50 },
    { title: x.colRecord, width: 240 },
    { title: x.colReason, width: CONTENT_W - 290 },
  ];
  // A bad tree-head signature fails every record alike: said once.
  const sigOnly = v.failures.every((f) => f.reason === 'bad-signature');
  const rows = sigOnly
    ? [{ cells: ['—', `${v.failures.length}`, x.reasons['bad-signature']], color: COLORS.alarm }]
    : v.failures.map((f) => ({ cells: [`#${f.index}`, recordText(f.record, x, tz), x.reasons[f.reason]] }));
  doc.y += 4;
  table(doc, columns, rows, { padding: { x: 3, y: 2.5 }, rowRules: true, repeatHeader: false });
}

/** The certificate PDF of a share verified at `v.checkedAt`, in `lang` and the time zone `tz`. */
export async function certificatePdf(v: ShareVerification, lang: Lang, tz: string): Promise<Buffer> {
  const x = CERTIFICATE_TEXTS[lang];
  const { doc, finish } = openDocument({ title: x.title, lang, subject: v.url });

  // Title on the left, the QR code of the verification page on the right.
  const qr = await QRCode.toString(v.url, { type: 'svg', margin: 0, errorCorrectionLevel: 'M' });
  const qrX = PAGE.margin + CONTENT_W - QR_SIZE;
  drawSvg(doc, qr, qrX, PAGE.margin, QR_SIZE, QR_SIZE);
  doc.fontSize(7.5).fillColor(COLORS.muted).text(x.scan, qrX - 10, PAGE.margin + QR_SIZE + 3, { width: QR_SIZE + 20, align: 'center' });
  const textW = CONTENT_W - QR_SIZE - 16;
  doc.fontSize(20).fillColor(COLORS.text).text(x.title, PAGE.margin, PAGE.margin + 8, { width: textW });
  doc.fontSize(9.5).fillColor(COLORS.muted).text(x.subtitle, PAGE.margin, doc.y + 2, { width: textW });
  const name = subjectName(v.subject);
  doc.fontSize(11).fillColor(COLORS.text).text(`${v.orgName} · ${name}`, PAGE.margin, doc.y + 6, { width: textW });
  doc.y = Math.max(doc.y, PAGE.margin + QR_SIZE + 16) + 8;

  banner(doc, v, x);

  heading(doc, x.sectionSubject);
  facts(doc, subjectLines(v, x, tz));

  heading(doc, x.sectionResult);
  facts(doc, [
    [x.checkedAt, formatInstant(new Date(v.checkedAt), tz)],
    [x.timezone, tz],
    [x.records, String(v.total)],
    [x.verified, String(v.verified)],
    [x.pending, String(v.pending)],
    [x.failed, String(v.failures.length)],
    ...(v.removed > 0 ? ([[x.removed, String(v.removed)]] as [string, string][]) : []),
  ]);
  for (const r of v.removals) doc.fontSize(8.5).fillColor(COLORS.muted).text(x.removedBy(r.policy, formatInstant(new Date(r.removedAt), tz)), PAGE.margin, doc.y);
  if (v.truncated) doc.fontSize(8.5).fillColor(COLORS.muted).text(x.truncated(v.total), PAGE.margin, doc.y);
  failureTable(doc, v, x, tz);

  heading(doc, x.sectionCheckpoint, 90);
  if (v.checkpoint) {
    facts(doc, [
      [x.origin, v.checkpoint.origin],
      [x.size, String(v.checkpoint.size)],
      [x.rootHash, v.checkpoint.rootHash],
      [x.signedAt, v.checkpoint.signedAt ? formatInstant(new Date(v.checkpoint.signedAt), tz) : '—'],
      [x.publicKey, v.verifierKey],
    ]);
  } else {
    facts(doc, [[x.publicKey, v.verifierKey]]);
    note(doc, x.noCheckpoint);
  }

  heading(doc, x.sectionHow, 60);
  doc.fontSize(9).fillColor(COLORS.text);
  for (const p of x.how) {
    ensureSpace(doc, doc.heightOfString(p, { width: CONTENT_W }) + 4);
    doc.text(p, PAGE.margin, doc.y, { width: CONTENT_W });
    doc.y += 4;
  }
  ensureSpace(doc, 30);
  doc.fontSize(9).fillColor(COLORS.muted).text(`${x.link}: `, PAGE.margin, doc.y + 4, { continued: true }).fillColor(COLORS.link).text(v.url, { link: v.url, underline: false });

  return finish((page, pages) => `${name} · ${x.generatedAt} ${formatInstant(new Date(v.checkedAt), tz)} · ${x.page(page, pages)}`);
}
