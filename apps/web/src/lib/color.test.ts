import { describe, expect, it } from 'vitest';
import { contrastRatio, readableTextOn, tagColoursOn, textShadeOf } from './color.ts';

describe('text on colours', () => {
  it('writes in whichever of white and near-black contrasts more', () => {
    // The device statuses: white read at 1.8:1 on grey #bfbfbf and 2.3:1 on green #52c41a.
    expect(readableTextOn('#bfbfbf')).toBe('rgba(0, 0, 0, 0.88)');
    expect(readableTextOn('#52c41a')).toBe('rgba(0, 0, 0, 0.88)');
    expect(readableTextOn('#ff4d4f')).toBe('rgba(0, 0, 0, 0.88)');
    expect(readableTextOn('#0958d9')).toBe('#fff');
    expect(readableTextOn('#cf1322')).toBe('#fff');
    expect(readableTextOn('red')).toBe('#fff');
  });

  it('darkens a colour for text on a pale tint of it', () => {
    for (const c of ['#52c41a', '#fa8c16', '#1677ff', '#f5222d', '#722ed1']) {
      const shade = textShadeOf(c);
      expect(contrastRatio(shade, '#ffffff')).toBeGreaterThanOrEqual(5.5);
      // A pale tint: 12 % of the colour on white.
      expect(contrastRatio(shade, '#f0f0f0')).toBeGreaterThan(4.5);
    }
    expect(textShadeOf('#0958d9')).toBe('#0958d9');
  });

  it('darkens a tag whose colour reads with neither text colour', () => {
    // Urgent red and antd blue: about 4:1 with white and with near-black.
    for (const c of ['#f5222d', '#1677ff']) {
      const tag = tagColoursOn(c);
      expect(tag.color).toBe('#fff');
      expect(contrastRatio('#ffffff', tag.background)).toBeGreaterThanOrEqual(4.5);
    }
    expect(tagColoursOn('#f5222d').background).toBe('#dc1f28');
    expect(tagColoursOn('#fadb14')).toEqual({ background: '#fadb14', color: 'rgba(0, 0, 0, 0.88)' });
    expect(tagColoursOn('#0958d9')).toEqual({ background: '#0958d9', color: '#fff' });
  });
});
