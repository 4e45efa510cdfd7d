// The province dictionary: China's 34 provincial-level regions keyed by their GB/T 2260 code,
// each with the short Chinese name the China map uses ("广东"), the full Chinese name ("广东省")
// and the English name ("Guangdong"). People write a warehouse's province in any of these forms
// (or the code); `findProvince` recognises them, and every answer and screen that shows a
// province shows the dictionary's name in the reader's language. Text that names no province
// is shown as written.
import type { Lang } from './i18n.ts';

export interface Province {
  /** GB/T 2260 code of the region, e.g. "440000". */
  code: string;
  /** Short Chinese name, as the China map names its region. */
  zh: string;
  /** Full Chinese name. */
  zhFull: string;
  en: string;
}

/** The dictionary code under which the dictionaries answer lists the provinces. */
export const PROVINCE_DICT = 'province';

export const PROVINCES: readonly Province[] = [
  { code: '110000', zh: '北京', zhFull: '北京市', en: 'Beijing' },
  { code: '120000', zh: '天津', zhFull: '天津市', en: 'Tianjin' },
  { code: '130000', zh: '河北', zhFull: '河北省', en: 'Hebei' },
  { code: '140000', zh: '山西', zhFull: '山西省', en: 'Shanxi' },
  { code: '150000', zh: '内蒙古', zhFull: '内蒙古自治区', en: 'Inner Mongolia' },
  { code: '210000', zh: '辽宁', zhFull: '辽宁省', en: 'Liaoning' },
  { code: '220000', zh: '吉林', zhFull: '吉林省', en: 'Jilin' },
  { code: '230000', zh: '黑龙江', zhFull: '黑龙江省', en: 'Heilongjiang' },
  { code: '310000', zh: '上海', zhFull: '上海市', en: 'Shanghai' },
  { code: '320000', zh: '江苏', zhFull: '江苏省', en: 'Jiangsu' },
  { code: '330000', zh: '浙江', zhFull: '浙江省', en: 'Zhejiang' },
  { code: '340000', zh: '安徽', zhFull: '安徽省', en: 'Anhui' },
  { code: '350000', zh: '福建', zhFull: '福建省', en: 'Fujian' },
  { code: '360000', zh: '江西', zhFull: '江西省', en: 'Jiangxi' },
  { code: '370000', zh: '山东', zhFull: '山东省', en: 'Shandong' },
  { code: '410000', zh: '河南', zhFull: '河南省', en: 'Henan' },
  { code: '420000', zh: '湖北', zhFull: '湖北省', en: 'Hubei' },
  { code: '430000', zh: '湖南', zhFull: '湖南省', en: 'Hunan' },
  { code: '440000', zh: '广东', zhFull: '广东省', en: 'Guangdong' },
  { code: '450000', zh: '广西', zhFull: '广西壮族自治区', en: 'Guangxi' },
  { code: '460000', zh: '海南', zhFull: '海南省', en: 'Hainan' },
  { code: '500000', zh: '重庆', zhFull: '重庆市', en: 'Chongqing' },
  { code: '510000', zh: '四川', zhFull: '四川省', en: 'Sichuan' },
  { code: '520000', zh: '贵州', zhFull: '贵州省', en: 'Guizhou' },
  { code: '530000', zh: '云南', zhFull: '云南省', en: 'Yunnan' },
  { code: '540000', zh: '西藏', zhFull: '西藏自治区', en: 'Tibet' },
  { code: '610000', zh: '陕西', zhFull: '陕西省', en: 'Shaanxi' },
  { code: '620000', zh: '甘肃', zhFull: '甘肃省', en: 'Gansu' },
  { code: '630000', zh: '青海', zhFull: '青海省', en: 'Qinghai' },
  { code: '640000', zh: '宁夏', zhFull: '宁夏回族自治区', en: 'Ningxia' },
  { code: '650000', zh: '新疆', zhFull: '新疆维吾尔自治区', en: 'Xinjiang' },
  { code: '710000', zh: '台湾', zhFull: '台湾省', en: 'Taiwan' },
  { code: '810000', zh: '香港', zhFull: '香港特别行政区', en: 'Hong Kong' },
  { code: '820000', zh: '澳门', zhFull: '澳门特别行政区', en: 'Macao' },
];

/** Every spelling a province is recognised by, lower-cased without spaces. */
const BY_SPELLING = new Map<string, Province>();
for (const p of PROVINCES)
  for (const s of [p.code, p.zh, p.zhFull, p.en, `${p.en} Province`]) BY_SPELLING.set(s.toLowerCase().replace(/[\s-]+/g, ''), p);
// Other English spellings people use.
for (const [s, code] of [
  ['innermongolia', '150000'],
  ['neimenggu', '150000'],
  ['xizang', '540000'],
  ['hongkong', '810000'],
  ['macau', '820000'],
  ['aomen', '820000'],
  ['xianggang', '810000'],
] as const)
  BY_SPELLING.set(s, PROVINCES.find((p) => p.code === code)!);

const ZH_SUFFIXES = ['维吾尔自治区', '壮族自治区', '回族自治区', '特别行政区', '自治区', '省', '市'];

/** The province a text names (code, short or full Chinese name, English name), or undefined. */
export function findProvince(text: string | null | undefined): Province | undefined {
  if (!text) return undefined;
  const key = text.trim().toLowerCase().replace(/[\s-]+/g, '');
  if (!key) return undefined;
  const found = BY_SPELLING.get(key) ?? BY_SPELLING.get(key.replace(/province$/, ''));
  if (found) return found;
  // "广西自治区", "内蒙古省": a short name with a suffix other than the official one.
  for (const suffix of ZH_SUFFIXES) if (key.length > suffix.length + 1 && key.endsWith(suffix)) return BY_SPELLING.get(key.slice(0, -suffix.length));
  return undefined;
}

/** A province's name in `lang`. */
export function provinceLabel(p: Province, lang: Lang): string {
  return lang === 'zh' ? p.zh : p.en;
}

/** The name to show for a written province: the dictionary's in `lang`, else the text as written (trimmed). */
export function provinceName(text: string | null | undefined, lang: Lang): string {
  const p = findProvince(text);
  return p ? provinceLabel(p, lang) : (text ?? '').trim();
}

/** Every spelling of the province `text` names, for matching stored text (lower-cased, trimmed); just `text` when it names none. */
export function provinceSpellings(text: string): string[] {
  const p = findProvince(text);
  if (!p) return [text.trim().toLowerCase()];
  return [...BY_SPELLING.entries()].filter(([, v]) => v === p).map(([k]) => k);
}
