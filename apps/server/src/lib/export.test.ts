// The CSV cell guard (OWASP CSV injection) and the CSV it lets exportRows write.
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { csvCell, exportRows } from './export.ts';

describe('csvCell', () => {
  it('quotes text that starts like a formula', () => {
    for (const v of ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", '-2+3', '@SUM(1+1)', '\t=1+2', '\r=1+3', '＝1+1', '＋SUM(1)', '－2+3', '＠SUM(1)', '-', '+', '=', '-18.5 °C', '- 1', '-1-1', '--1']) {
      expect(csvCell(v), JSON.stringify(v)).toBe(`'${v}`);
    }
  });

  it('keeps numbers, plain-number text and other text as they are', () => {
    for (const v of [-18.5, 0, 42, 1e21, -0.001]) expect(csvCell(v)).toBe(v);
    for (const v of ['-18.5', '+3', '-0', '-.5', '1e-3', '-2E+5', '12', 'Truck 7', '冷链', " '=already", ' =1', '', 'a=b', '2+3']) expect(csvCell(v)).toBe(v);
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });
});

describe('exportRows as CSV', () => {
  it('writes formula-like text quoted and negative numbers as numbers; Excel keeps the text', async () => {
    const rows = [{ name: '=1+1', temp: -18.5, text: '-18.5' }];
    const columns = [
      { header: { zh: '名称', en: 'Name' }, value: (r: (typeof rows)[number]) => r.name },
      { header: { zh: '温度', en: 'Temperature' }, value: (r: (typeof rows)[number]) => r.temp },
      { header: { zh: '文本', en: 'Text' }, value: (r: (typeof rows)[number]) => r.text },
    ];
    const opts = { lang: 'en' as const, timezone: 'UTC', name: { zh: '导出', en: 'export' }, sheet: { zh: '表', en: 'Sheet' }, columns, rows };
    const csv = await exportRows({ ...opts, format: 'csv' });
    expect(csv.body.toString('utf8')).toBe("\ufeffName,Temperature,Text\n'=1+1,-18.5,-18.5\n");
    // A workbook's cells are typed: the text stays text, unquoted.
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await exportRows({ ...opts, format: 'xlsx' })).body as unknown as ArrayBuffer);
    const cell = book.worksheets[0]!.getCell('A2');
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(cell.value).toBe('=1+1');
  });
});
