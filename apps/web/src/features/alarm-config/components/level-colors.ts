// Colours of level badges: the level's own colour behind a text that stays readable on it.

/** Black on light colours (yellow), white on dark ones, by the colour's relative luminance. */
export function textColorOn(hex: string): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return '#fff';
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((c) => {
    const v = parseInt(c, 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  return luminance > 0.4 ? 'rgba(0, 0, 0, 0.88)' : '#fff';
}
