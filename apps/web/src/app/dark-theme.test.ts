// The dark theme's Ant Design tokens: the dark algorithm, and every text colour at WCAG AA's
// 4.5:1 on each dark surface it is drawn on (panels, popups, the layout), with white on the
// primary colour (buttons, the selected menu entry) too.
import { describe, expect, it } from 'vitest';
import { theme } from 'antd';
import { antdTheme } from './theme.ts';

type Rgba = [number, number, number, number];
function parse(color: string): Rgba {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (hex) return [0, 2, 4].map((i) => parseInt(hex[1]!.slice(i, i + 2), 16)).concat(1) as Rgba;
  const rgb = /^rgba?\(([^)]+)\)$/.exec(color);
  if (!rgb) throw new Error(`colour ${color}`);
  const [r, g, b, a = '1'] = rgb[1]!.split(/[\s,/]+/).filter(Boolean);
  return [Number(r), Number(g), Number(b), Number(a)];
}
/** `fg` laid over the opaque `bg`. */
function over(fg: string, bg: string): [number, number, number] {
  const [r, g, b, a] = parse(fg);
  const [R, G, B] = parse(bg);
  return [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
}
function luminance([r, g, b]: [number, number, number]): number {
  const lin = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
function contrast(fg: string, bg: string): number {
  const a = luminance(over(fg, bg));
  const b = luminance(over(bg, bg));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

describe('dark theme tokens', () => {
  const config = antdTheme('dark-theme');
  const token = theme.getDesignToken(config);

  it('uses the dark algorithm with dark surfaces', () => {
    expect(config.algorithm).toBe(theme.darkAlgorithm);
    for (const bg of [token.colorBgLayout, token.colorBgContainer, token.colorBgElevated]) expect(luminance(over(bg, '#000000'))).toBeLessThan(0.02);
  });

  it('keeps every text colour at 4.5:1 or more on the panels, popups and layout', () => {
    const texts = {
      colorText: token.colorText,
      colorTextSecondary: token.colorTextSecondary,
      colorTextTertiary: token.colorTextTertiary,
      colorTextDescription: token.colorTextDescription,
      colorTextPlaceholder: token.colorTextPlaceholder,
      colorLink: token.colorLink,
      colorPrimaryText: token.colorPrimaryText,
      colorErrorText: token.colorErrorText,
      colorWarningText: token.colorWarningText,
      colorSuccessText: token.colorSuccessText,
    };
    const low: string[] = [];
    for (const [name, fg] of Object.entries(texts)) {
      for (const bg of [token.colorBgContainer, token.colorBgElevated, token.colorBgLayout]) {
        const ratio = contrast(fg, bg);
        if (ratio < 4.5) low.push(`${name} ${fg} on ${bg}: ${ratio.toFixed(2)}`);
      }
    }
    expect(low).toEqual([]);
  });

  it('puts white text on the primary colour at 4.5:1 or more', () => {
    expect(contrast('#ffffff', token.colorPrimary)).toBeGreaterThanOrEqual(4.5);
  });

  it('the light themes keep the light algorithm', () => {
    expect(antdTheme('default-theme').algorithm).toBeUndefined();
    expect(antdTheme('red-theme').algorithm).toBeUndefined();
  });
});
