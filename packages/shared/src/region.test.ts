import { describe, expect, it } from 'vitest';
import { findProvince, PROVINCES, provinceName, provinceSpellings } from './region.ts';

describe('province dictionary', () => {
  it('holds the 34 regions once each, with a code and both names', () => {
    expect(PROVINCES).toHaveLength(34);
    expect(new Set(PROVINCES.map((p) => p.code)).size).toBe(34);
    for (const p of PROVINCES) {
      expect(p.code).toMatch(/^\d{6}$/);
      expect(p.zh).toMatch(/^\p{Script=Han}+$/u);
      expect(p.en).not.toMatch(/\p{Script=Han}/u);
    }
  });

  it('recognises a province by code, short or full Chinese name and English name', () => {
    for (const text of ['广东', '广东省', ' Guangdong ', 'guangdong province', '440000']) expect(findProvince(text)?.code).toBe('440000');
    for (const text of ['广西壮族自治区', '广西自治区', 'Guangxi']) expect(findProvince(text)?.code).toBe('450000');
    expect(findProvince('Inner Mongolia')?.zh).toBe('内蒙古');
    expect(findProvince('Hong Kong')?.zh).toBe('香港');
    for (const text of ['', '  ', null, undefined, 'Atlantis', '浦东']) expect(findProvince(text)).toBeUndefined();
  });

  it('names a province in the language, and other text as written', () => {
    expect(provinceName('上海', 'en')).toBe('Shanghai');
    expect(provinceName('Shanghai', 'zh')).toBe('上海');
    expect(provinceName('上海市', 'zh')).toBe('上海');
    expect(provinceName(' Atlantis ', 'en')).toBe('Atlantis');
    expect(provinceName(null, 'en')).toBe('');
  });

  it('lists the spellings stored text of one province may have', () => {
    expect(provinceSpellings('上海')).toEqual(expect.arrayContaining(['310000', '上海', '上海市', 'shanghai']));
    expect(provinceSpellings('Atlantis ')).toEqual(['atlantis']);
  });
});
