// Durations as people read them: "2 d 3 h", "1 h 5 min", "45 s", in the user's language.
import type { TFunction } from 'i18next';

export function formatDuration(seconds: number, t: TFunction): string {
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return t('track.duration.dh', { d, h });
  if (h > 0) return t('track.duration.hm', { h, m });
  if (m > 0) return t('track.duration.m', { m });
  return t('track.duration.s', { s });
}
