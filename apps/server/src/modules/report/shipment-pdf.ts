// The shipment report as a PDF (A4, the PDF kit of lib/pdf-kit.ts): the task and temperature
// facts, the track drawn as vectors (planned route, track driven, origin and destination areas,
// alarms; no map tiles, so it is made the same without internet), the temperature curve with its
// limits (ECharts rendered to SVG on the server), the alarm list, and the electronic signatures
// (modules/signature; blank lines to sign by hand while there are none).
import { chartSvg } from '../../lib/chart-svg.ts';
import type { Lang } from '@iotc/shared/i18n';
import { alarmValueText } from '@iotc/shared/format';
import { placeText } from '@iotc/shared/geocode';
import type { SignatureRow } from '@iotc/shared/signature';
import { formatInstant } from '../../lib/export.ts';
import { COLORS, CONTENT_W, drawSvg, ensureSpace, facts, heading, note, openDocument, PAGE, table, titleBlock, type Doc } from '../../lib/pdf-kit.ts';
import type { ShipmentData } from './shipment-data.ts';
import { REPORT_TEXTS } from './texts.ts';

/** The map's colours (the curve and its lower limit use the track's blue too). */
const MAP = { track: '#1677ff', route: '#8c8c8c', origin: '#52c41a', destination: '#fa541c' };
/** Most points drawn of the track and the curve (more adds nothing at this size). */
const MAX_DRAWN = 3000;

function thin<T>(items: T[], max: number): T[] {
  if (items.length <= max) return items;
  const step = items.length / max;
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(items[Math.floor(i * step)]!);
  out.push(items[items.length - 1]!);
  return out;
}

/** The track, the planned route and the two areas in a box, equirectangular around the middle latitude. */
function trackMap(doc: Doc, d: ShipmentData, lang: Lang) {
  const x = REPORT_TEXTS[lang];
  const box = { w: CONTENT_W, h: 250 };
  ensureSpace(doc, box.h + 30);
  const left = PAGE.margin;
  const top = doc.y;
  const fixes = thin(
    d.readings.filter((r) => r.lat !== null && r.lon !== null && r.positioning !== 'LBS' && !(r.lat === 0 && r.lon === 0)),
    MAX_DRAWN,
  );
  const areaPoint = (a: { lat: number; lon: number; radiusM: number }, k: number): [number, number] => {
    const dLat = a.radiusM / 111_195;
    return [a.lat + k * dLat, a.lon + (k * dLat) / Math.cos((a.lat * Math.PI) / 180)];
  };
  const all: [number, number][] = [
    ...fixes.map((r) => [r.lat!, r.lon!] as [number, number]),
    ...d.route,
    areaPoint(d.origin, 1),
    areaPoint(d.origin, -1),
    areaPoint(d.destination, 1),
    areaPoint(d.destination, -1),
  ];
  doc.rect(left, top, box.w, box.h).lineWidth(0.5).strokeColor(COLORS.line).stroke();
  const lats = all.map((p) => p[0]);
  const lons = all.map((p) => p[1]);
  const midLat = (Math.min(...lats) + Math.max(...lats)) / 2;
  const kx = Math.cos((midLat * Math.PI) / 180);
  const minX = Math.min(...lons) * kx;
  const maxX = Math.max(...lons) * kx;
  const minY = Math.min(...lats);
  const maxY = Math.max(...lats);
  const pad = 16;
  const scale = Math.min((box.w - 2 * pad) / Math.max(maxX - minX, 1e-6), (box.h - 2 * pad) / Math.max(maxY - minY, 1e-6));
  const offX = left + pad + (box.w - 2 * pad - (maxX - minX) * scale) / 2;
  const offY = top + pad + (box.h - 2 * pad - (maxY - minY) * scale) / 2;
  const px = (lat: number, lon: number): [number, number] => [offX + (lon * kx - minX) * scale, offY + (maxY - lat) * scale];

  doc.save();
  doc.rect(left, top, box.w, box.h).clip();
  for (const [a, color] of [
    [d.origin, MAP.origin],
    [d.destination, MAP.destination],
  ] as const) {
    const [cx, cy] = px(a.lat, a.lon);
    const r = Math.max(3, (a.radiusM / 111_195) * scale);
    doc.circle(cx, cy, r).fillOpacity(0.15).fillAndStroke(color, color);
    doc.fillOpacity(1);
  }
  if (d.route.length >= 2) {
    const [sx, sy] = px(d.route[0]![0], d.route[0]![1]);
    doc.moveTo(sx, sy);
    for (const [lat, lon] of d.route.slice(1)) doc.lineTo(...px(lat, lon));
    doc.dash(4, { space: 3 }).lineWidth(1.2).strokeColor(MAP.route).stroke().undash();
  }
  if (fixes.length >= 2) {
    doc.moveTo(...px(fixes[0]!.lat!, fixes[0]!.lon!));
    for (const r of fixes.slice(1)) doc.lineTo(...px(r.lat!, r.lon!));
    doc.lineWidth(1.6).strokeColor(MAP.track).lineJoin('round').stroke();
  }
  for (const a of d.report.alarms) {
    const at = Date.parse(a.startedAt);
    const near = fixes.reduce<{ r: (typeof fixes)[number] | null; dt: number }>((best, r) => (Math.abs(r.t - at) < best.dt ? { r, dt: Math.abs(r.t - at) } : best), { r: null, dt: Infinity }).r;
    if (near) doc.circle(...px(near.lat!, near.lon!), 3).fill(COLORS.alarm);
  }
  doc.restore();
  if (fixes.length < 2) doc.fontSize(10).fillColor(COLORS.muted).text(x.noTrack, left, top + box.h / 2 - 6, { width: box.w, align: 'center' });

  // Legend under the box.
  let lx = left;
  const ly = top + box.h + 8;
  doc.fontSize(8.5);
  for (const [label, color, kind] of [
    [x.legendTrack, MAP.track, 'line'],
    [x.legendRoute, MAP.route, 'dash'],
    [x.legendOrigin, MAP.origin, 'dot'],
    [x.legendDestination, MAP.destination, 'dot'],
    [x.legendAlarm, COLORS.alarm, 'dot'],
  ] as const) {
    if (kind === 'dot') doc.circle(lx + 5, ly + 4, 3.5).fill(color);
    else {
      doc.moveTo(lx, ly + 4).lineTo(lx + 12, ly + 4).lineWidth(1.5);
      if (kind === 'dash') doc.dash(3, { space: 2 });
      doc.strokeColor(color).stroke().undash();
    }
    doc.fillColor(COLORS.text).text(label, lx + 16, ly, { lineBreak: false });
    lx += 16 + doc.widthOfString(label) + 14;
  }
  doc.y = ly + 16;
}

/** The temperature curve with the limits, as SVG from ECharts. */
function curveSvg(d: ShipmentData, lang: Lang, tz: string, width: number, height: number): string | null {
  const x = REPORT_TEXTS[lang];
  const points = thin(d.readings.filter((r) => r.temp !== null), MAX_DRAWN);
  if (points.length === 0) return null;
  const { tempMin, tempMax } = d.report.limits;
  const lines = [
    ...(tempMax !== null ? [{ yAxis: tempMax, name: x.upper, lineStyle: { color: COLORS.alarm, type: 'dashed' as const } }] : []),
    ...(tempMin !== null ? [{ yAxis: tempMin, name: x.lower, lineStyle: { color: MAP.track, type: 'dashed' as const } }] : []),
  ];
  const values = points.map((p) => p.temp!);
  const lo = Math.min(...values, ...(tempMin !== null ? [tempMin] : []));
  const hi = Math.max(...values, ...(tempMax !== null ? [tempMax] : []));
  return chartSvg(
    {
      textStyle: { fontFamily: 'Noto Sans SC' },
      grid: { left: 48, right: 16, top: 16, bottom: 36 },
      xAxis: {
        type: 'time',
        axisLabel: { fontSize: 9, hideOverlap: true, formatter: (v: number) => formatInstant(new Date(v), tz).slice(5, 16).replace(' ', '\n') },
      },
      yAxis: { type: 'value', name: '°C', nameTextStyle: { fontSize: 9 }, min: Math.floor(lo - 1), max: Math.ceil(hi + 1), axisLabel: { fontSize: 9 } },
      series: [
        {
          type: 'line',
          showSymbol: false,
          lineStyle: { width: 1.2, color: MAP.track },
          data: points.map((p) => [p.t, p.temp]),
          markLine: lines.length ? { symbol: 'none', label: { show: false }, data: lines } : undefined,
        },
      ],
    },
    { width, height },
  );
}

/** The limits the curve's dashed lines stand for (svg-to-pdfkit does not draw ECharts' line labels). */
function limitLegend(doc: Doc, d: ShipmentData, lang: Lang) {
  const x = REPORT_TEXTS[lang];
  const { tempMin, tempMax } = d.report.limits;
  let lx = PAGE.margin + 48;
  const ly = doc.y;
  doc.fontSize(8.5);
  for (const [label, value, color] of [
    [x.upper, tempMax, COLORS.alarm],
    [x.lower, tempMin, MAP.track],
  ] as const) {
    if (value === null) continue;
    doc.moveTo(lx, ly + 4).lineTo(lx + 14, ly + 4).lineWidth(1.2).dash(3, { space: 2 }).strokeColor(color).stroke().undash();
    const text = `${label} ${value.toFixed(1)} °C`;
    doc.fillColor(COLORS.text).text(text, lx + 18, ly, { lineBreak: false });
    lx += 18 + doc.widthOfString(text) + 16;
  }
  doc.y = ly + 14;
}

function alarmTable(doc: Doc, d: ShipmentData, lang: Lang, tz: string) {
  const x = REPORT_TEXTS[lang];
  if (d.report.alarms.length === 0) {
    note(doc, x.noAlarms);
    return;
  }
  // Where each alarm began (issue 26 item 3): the address with its coordinates, or the coordinates.
  const columns = [
    { title: x.alarmStarted, width: 62 },
    { title: x.alarmEnded, width: 62 },
    { title: x.alarmType, width: 66 },
    { title: x.alarmLevel, width: 50 },
    { title: x.alarmValue, width: 44 },
    { title: x.alarmThreshold, width: 48 },
    { title: x.alarmStatus, width: 42 },
    { title: x.position, width: CONTENT_W - 374 },
  ];
  const rows = d.report.alarms.map((a) => ({
    cells: [
      formatInstant(new Date(a.startedAt), tz),
      a.endedAt ? formatInstant(new Date(a.endedAt), tz) : '—',
      x.alarmTypes[a.type] ?? a.type,
      a.levelName,
      // The unit's precision and unit (format.ts): '111.8 km/h', not 111.78995078908814.
      a.peak !== null || a.value !== null ? alarmValueText(a.type, a.peak ?? a.value, lang) : '—',
      alarmValueText(a.type, a.threshold, lang),
      x.alarmStatuses[a.status] ?? a.status,
      a.position ? placeText(a.position) : '—',
    ],
  }));
  table(doc, columns, rows, { repeatHeader: false });
}

const SIGN_TEXTS = {
  en: {
    section: 'Signatures',
    responsible: 'Responsible',
    reviewed: 'Reviewed by',
    date: 'Date',
    meanings: { approved: 'Approved', rejected: 'Rejected', reviewed: 'Reviewed', responsible: 'Responsible' },
    hash: 'record SHA-256',
    mismatch: 'DOES NOT MATCH: the task changed after signing',
  },
  zh: {
    section: '电子签名',
    responsible: '负责人',
    reviewed: '复核人',
    date: '日期',
    meanings: { approved: '批准', rejected: '驳回', reviewed: '复核', responsible: '负责' },
    hash: '记录 SHA-256',
    mismatch: '与记录不符：签名后任务已被修改',
  },
} as const;

/** The report's electronic signatures (name, time, meaning, hash prefix); blank lines to sign by hand when there are none. */
function signatureBlock(doc: Doc, signed: readonly SignatureRow[], lang: Lang, tz: string) {
  const x = SIGN_TEXTS[lang];
  heading(doc, x.section, 60);
  if (signed.length === 0) {
    ensureSpace(doc, 30);
    const y = doc.y + 8;
    const half = CONTENT_W / 2;
    doc.fontSize(10).fillColor(COLORS.text);
    for (const [i, who] of [x.responsible, x.reviewed].entries()) {
      doc.text(`${who}: ______________    ${x.date}: ____________`, PAGE.margin + i * half, y, { width: half, lineBreak: false });
    }
    doc.y = y + 20;
    return;
  }
  facts(
    doc,
    signed.map((s): [string, string] => [
      x.meanings[s.meaning],
      `${s.signerName} (${s.signerAccount}) · ${formatInstant(new Date(s.signedAt), tz)} · ${x.hash} ${s.recordHash.slice(0, 16)}…${s.matches ? '' : ` · ${x.mismatch}`}`,
    ]),
  );
}

export async function shipmentPdf(d: ShipmentData, lines: [string, string][], lang: Lang, tz: string, signed: readonly SignatureRow[] = []): Promise<Buffer> {
  const x = REPORT_TEXTS[lang];
  const { doc, finish } = openDocument({ title: `${x.title} ${d.report.task.code}`, lang });
  titleBlock(doc, { title: x.title, subtitle: `${x.subtitle} · ${d.report.task.code}`, size: 20, align: 'left' });

  // Task facts first, then the temperature ones (the lines are in that order; the split is at the period).
  const split = lines.findIndex(([label]) => label === x.period);
  heading(doc, x.sectionTask);
  facts(doc, lines.slice(0, split));
  heading(doc, x.sectionTemperature);
  facts(doc, lines.slice(split));

  heading(doc, x.sectionMap, 280);
  trackMap(doc, d, lang);

  heading(doc, x.sectionCurve, 240);
  const svg = curveSvg(d, lang, tz, Math.round(CONTENT_W), 230);
  if (svg) {
    ensureSpace(doc, 235);
    drawSvg(doc, svg, PAGE.margin, doc.y, CONTENT_W, 230);
    doc.y += 234;
    limitLegend(doc, d, lang);
  } else {
    note(doc, x.noCurve);
  }

  heading(doc, x.sectionAlarms);
  alarmTable(doc, d, lang, tz);

  signatureBlock(doc, signed, lang, tz);

  return finish((page, pages) => `${d.report.task.code} · ${x.page(page, pages)}`);
}
