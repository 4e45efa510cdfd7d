// Text on coloured backgrounds (level tags, notifications): dark on light colours such as a
// yellow level, white on the rest, so a tag stays readable whatever colour an organisation picks.

/** The text colour readable on `background` (#rrggbb; anything else gets white). */
export function readableTextOn(background: string): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(background.trim());
  if (!m) return '#fff';
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => {
    const c = parseInt(h!, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  // WCAG relative luminance; above it black text contrasts better than white.
  const luminance = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  return luminance > 0.45 ? 'rgba(0, 0, 0, 0.88)' : '#fff';
}
