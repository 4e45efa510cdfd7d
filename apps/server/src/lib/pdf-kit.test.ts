// The PDF kit on its own: a document carries its title, language, author and the embedded
// Chinese font; a table longer than a page continues on the next pages with its header (or
// without, when asked) and keeps the header with its first row; fixed-height rows cut long text;
// the footer numbers every page.
import { describe, expect, it } from 'vitest';
import { HAS_PDFTOTEXT, pdfPages, pdfText } from '../test/pdf-text.ts';
import { CONTENT_W, heading, openDocument, PAGE, table, titleBlock, type TableColumn } from './pdf-kit.ts';

const columns: TableColumn[] = [
  { title: '时间 Time', width: 150 },
  { title: '温度 Temperature', width: 150 },
  { title: '备注 Note', width: CONTENT_W - 300 },
];
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ cells: [`2026-11-02 R${String(i).padStart(3, '0')}`, `${(4 + (i % 5) / 10).toFixed(1)} °C`, i % 2 ? '冷库正常' : 'ok'] }));

const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12 };

/** A text entry of the info dictionary or the catalog, read from the file: a PDF literal string (in place or an object of its own), UTF-16 when it starts with a BOM. */
function info(pdf: Buffer, key: string): string | null {
  const raw = pdf.toString('latin1');
  const entry = new RegExp(`/${key} (?:\\(|(\\d+) 0 R)`).exec(raw);
  if (!entry) return null;
  let i = entry[1] ? raw.indexOf('(', raw.indexOf(`\n${entry[1]} 0 obj`)) + 1 : entry.index + entry[0].length;
  const bytes: number[] = [];
  for (; raw[i] !== ')'; i++) {
    if (raw[i] !== '\\') {
      bytes.push(raw.charCodeAt(i));
      continue;
    }
    const octal = /^[0-7]{1,3}/.exec(raw.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += octal[0].length;
    } else {
      i++;
      bytes.push(ESCAPES[raw[i]!] ?? raw.charCodeAt(i));
    }
  }
  const b = Buffer.from(bytes);
  return b[0] === 0xfe && b[1] === 0xff ? Buffer.from(b.subarray(2)).swap16().toString('utf16le') : b.toString('latin1');
}

async function render(draw: (doc: PDFKit.PDFDocument) => void, lang: 'zh' | 'en' = 'zh'): Promise<Buffer> {
  const { doc, finish } = openDocument({ title: '温湿度记录表 CR-1', lang });
  draw(doc);
  return finish((page, pages) => `CR-1 · 第 ${page} 页，共 ${pages} 页`);
}

describe('openDocument', () => {
  it('names the document and the product in its metadata and embeds the Chinese font (a subset)', async () => {
    const pdf = await render((doc) => titleBlock(doc, { title: '温湿度记录表', subtitle: '日记录 · 2026-11-02' }));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(info(pdf, 'Title')).toBe('温湿度记录表 CR-1');
    expect(info(pdf, 'Author')).toBe('物联网云平台');
    expect(info(pdf, 'Lang')).toBe('zh-CN');
    const raw = pdf.toString('latin1');
    expect(raw).toMatch(/\/FontFile2/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansSC/);
    const en = await render(() => {}, 'en');
    expect(info(en, 'Author')).toBe('IoT Cloud Console');
    expect(info(en, 'Lang')).toBe('en-US');
  });

  it.skipIf(!HAS_PDFTOTEXT)('sets Chinese text in the bundled font, readable back as text, with the footer on the page', async () => {
    const text = await pdfText(await render((doc) => titleBlock(doc, { title: '温湿度记录表', subtitle: '冷链运输 · 2026-11-02' })));
    expect(text).toContain('温湿度记录表');
    expect(text).toContain('冷链运输 · 2026-11-02');
    expect(text).toContain('CR-1 · 第 1 页，共 1 页');
  });
});

describe.skipIf(!HAS_PDFTOTEXT)('table', () => {
  it('continues on new pages with its header repeated, every row once, every page numbered', async () => {
    const pages = await pdfPages(await render((doc) => table(doc, columns, rows(150), { rowHeight: 14, headerRule: true })));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    pages.forEach((page, i) => {
      expect(page.startsWith('时间 Time 温度 Temperature 备注 Note'), page.slice(0, 60)).toBe(true);
      expect(page.endsWith(`CR-1 · 第 ${i + 1} 页，共 ${pages.length} 页`)).toBe(true);
    });
    const seen = pages.flatMap((p) => [...p.matchAll(/R(\d{3})/g)].map((m) => Number(m[1])));
    expect(seen).toEqual(Array.from({ length: 150 }, (_, i) => i));
  });

  it('draws the header once when not asked to repeat it, wrapped rows as tall as their text', async () => {
    const long = Array.from({ length: 60 }, (_, i) => ({ cells: [`R${String(i).padStart(3, '0')}`, '4.0 °C', '门开启超过五分钟，已通知值班人员处理并记录在案 door open for more than five minutes'] }));
    const pages = await pdfPages(await render((doc) => table(doc, columns, long, { repeatHeader: false })));
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages[0]!.startsWith('时间 Time')).toBe(true);
    for (const page of pages.slice(1)) expect(page).not.toContain('时间 Time');
    expect(pages.join(' ').match(/R\d{3}/g)).toHaveLength(60);
  });

  it('moves the header to the next page rather than leave it alone at the foot of one', async () => {
    const pages = await pdfPages(
      await render((doc) => {
        heading(doc, '上一节 Before');
        doc.y = PAGE.height - PAGE.margin - 40;
        table(doc, columns, rows(3), { rowHeight: 14 });
      }),
    );
    expect(pages).toHaveLength(2);
    expect(pages[0]).not.toContain('时间 Time');
    expect(pages[1]!.startsWith('时间 Time 温度 Temperature 备注 Note 2026-11-02 R000')).toBe(true);
  });

  it('cuts a cell of a fixed-height row to its column with an ellipsis', async () => {
    const text = await pdfText(await render((doc) => table(doc, columns, [{ cells: ['R000', '4.0 °C', '冷库一号的温度记录仪在夜间多次上报超出范围的读数 and then some more words to be cut'] }], { rowHeight: 14 })));
    expect(text).toMatch(/R000 4\.0 °C 冷库一号\S*…/);
    expect(text).not.toContain('to be cut');
  });
});
