// Text on coloured backgrounds (level tags, notifications, tab counts): of white and near-black,
// the text colour that contrasts more with the colour, so a tag stays readable whatever colour an
// organisation picks; and a colour's darker shade for coloured text on a pale tint of it.

function channels(color: string): [number, number, number] | null {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color.trim());
  return m ? [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)] : null;
}

/** The colour with each channel at `keep` of its value (mixed with black), as #rrggbb. */
function shade(c: [number, number, number], keep: number): string {
  return `#${c.map((v) => Math.round(v * keep).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG relative luminance of #rrggbb colour channels. */
function luminance([r, g, b]: [number, number, number]): number {
  const [lr, lg, lb] = [r, g, b].map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lr! + 0.7152 * lg! + 0.0722 * lb!;
}

/** The WCAG contrast ratio of two #rrggbb colours (1 when either is something else). */
export function contrastRatio(a: string, b: string): number {
  const ca = channels(a);
  const cb = channels(b);
  if (!ca || !cb) return 1;
  const [la, lb] = [luminance(ca), luminance(cb)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** antd's text colour, rgba(0, 0, 0, 0.88), as it shows on a coloured background (near enough). */
const DARK_TEXT = '#1f1f1f';

/**
 * The text colour readable on `background` (#rrggbb; anything else gets white): of white and
 * antd's near-black text, the one with the higher contrast (white on a tie).
 */
export function readableTextOn(background: string): string {
  if (!channels(background)) return '#fff';
  return contrastRatio(DARK_TEXT, background) > contrastRatio('#ffffff', background) ? 'rgba(0, 0, 0, 0.88)' : '#fff';
}

/**
 * A tag in `color` with readable text: the colour as background and readableTextOn's text, where
 * that reaches 4.5:1; else (reds and blues such as #f5222d and #1677ff read at about 4:1 with
 * either text) the colour darkened just enough for white text to.
 */
export function tagColoursOn(color: string): { background: string; color: string } {
  const text = readableTextOn(color);
  const c = channels(color);
  if (!c || contrastRatio(text === '#fff' ? '#ffffff' : DARK_TEXT, color) >= 4.5) return { background: color, color: text };
  for (let keep = 0.95; keep > 0; keep -= 0.05) {
    const hex = shade(c, keep);
    if (contrastRatio('#ffffff', hex) >= 4.5) return { background: hex, color: '#fff' };
  }
  return { background: '#000000', color: '#fff' };
}

/** `color` darkened (mixed with black) until it reads at 4.5:1 on white and on pale tints of itself. */
export function textShadeOf(color: string): string {
  const c = channels(color);
  if (!c) return color;
  for (let keep = 1; keep > 0; keep -= 0.05) {
    const hex = shade(c, keep);
    if (contrastRatio(hex, '#ffffff') >= 5.5) return hex;
  }
  return '#000000';
}
