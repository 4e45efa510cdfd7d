// The scheduled report form worked out without React: its values for a new or a stored schedule,
// the body it sends, the frequencies and subjects each report kind takes, the recipients'
// addresses and the time zones offered. The checks are the shared body schema's, so the form
// refuses what the server would.
import { z } from 'zod';
import type { AssetKind } from '@iotc/shared/asset';
import { GSP_ASSET_KINDS } from '@iotc/shared/gsp-report';
import type { Lang } from '@iotc/shared/i18n';
import {
  FREQUENCIES_OF_KIND,
  MAX_SCHEDULE_RECIPIENTS,
  scheduleBodySchema,
  type FileFormat,
  type ScheduleBody,
  type ScheduleFrequency,
  type ScheduleKind,
  type ScheduleRow,
} from '@iotc/shared/ops-report';

export interface ScheduleFormValues {
  name: string;
  kind: ScheduleKind;
  frequency: ScheduleFrequency;
  hour: number;
  timezone: string;
  lang: Lang;
  format: FileFormat;
  subjectIds: string[];
  recipients: string[];
  enabled: boolean;
}

/** What a kind reports on: one asset (the GSP record), assets (empty: all), devices (empty: all). */
export type SubjectRule = { mode: 'one-asset'; kinds: readonly AssetKind[] } | { mode: 'assets'; kinds: readonly AssetKind[] } | { mode: 'devices' };

export const SUBJECTS_OF_KIND: Record<ScheduleKind, SubjectRule> = {
  temperature: { mode: 'one-asset', kinds: GSP_ASSET_KINDS },
  alarm: { mode: 'assets', kinds: ['vehicle', 'container', 'warehouse', 'cold_room', 'refrigerator'] },
  mileage: { mode: 'assets', kinds: ['vehicle', 'container'] },
  online: { mode: 'devices' },
};

/** The browser's time zone, else UTC. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The time zones offered: the runtime's list, with `extra` (a stored or the browser's zone) kept in. */
export function timeZones(...extra: string[]): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const all = intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...all, 'UTC', ...extra.filter(Boolean)])].sort();
}

export function newValues(lang: Lang, timezone: string = browserTimeZone()): ScheduleFormValues {
  return { name: '', kind: 'alarm', frequency: 'daily', hour: 7, timezone, lang, format: 'pdf', subjectIds: [], recipients: [], enabled: true };
}

export function rowValues(row: ScheduleRow): ScheduleFormValues {
  return {
    name: row.name,
    kind: row.kind,
    frequency: row.frequency,
    hour: row.hour,
    timezone: row.timezone,
    lang: row.lang,
    format: row.format,
    subjectIds: [...row.subjectIds],
    recipients: [...row.recipients],
    enabled: row.enabled,
  };
}

/** A kind's first frequency when the current one is not offered for it. */
export function frequencyFor(kind: ScheduleKind, frequency: ScheduleFrequency): ScheduleFrequency {
  return FREQUENCIES_OF_KIND[kind].includes(frequency) ? frequency : FREQUENCIES_OF_KIND[kind][0]!;
}

export function isFrequencyOffered(kind: ScheduleKind, frequency: ScheduleFrequency | undefined): boolean {
  return !!frequency && FREQUENCIES_OF_KIND[kind].includes(frequency);
}

/** Subjects kept when the kind changes: only when both kinds pick the same things. */
export function subjectsFor(from: ScheduleKind, to: ScheduleKind, ids: string[]): string[] {
  const a = SUBJECTS_OF_KIND[from];
  const b = SUBJECTS_OF_KIND[to];
  if (a.mode === 'devices' || b.mode === 'devices') return a.mode === b.mode ? ids : [];
  if (b.mode === 'one-asset') return ids.slice(0, 1);
  return ids;
}

const email = z.email();

/** Addresses split at commas, semicolons and white space, trimmed, duplicates dropped. */
export function splitRecipients(list: readonly string[]): string[] {
  const out: string[] = [];
  for (const part of list.flatMap((s) => s.split(/[,;\s]+/))) {
    const v = part.trim();
    if (v && !out.some((o) => o.toLowerCase() === v.toLowerCase())) out.push(v);
  }
  return out;
}

/** The addresses that are no e-mail address. */
export function badRecipients(list: readonly string[]): string[] {
  return list.filter((r) => !email.safeParse(r).success);
}

export type RecipientsIssue = { code: 'none' } | { code: 'tooMany'; max: number } | { code: 'bad'; addresses: string[] };

export function recipientsIssue(list: readonly string[]): RecipientsIssue | null {
  if (list.length === 0) return { code: 'none' };
  if (list.length > MAX_SCHEDULE_RECIPIENTS) return { code: 'tooMany', max: MAX_SCHEDULE_RECIPIENTS };
  const bad = badRecipients(list);
  return bad.length ? { code: 'bad', addresses: bad } : null;
}

/** The body the form sends; the shared schema parses it, so what passes here passes on the server. */
export function scheduleBody(v: ScheduleFormValues): ScheduleBody {
  return {
    name: v.name.trim(),
    kind: v.kind,
    frequency: v.frequency,
    hour: v.hour,
    timezone: v.timezone,
    lang: v.lang,
    format: v.format,
    subjectIds: v.subjectIds,
    recipients: splitRecipients(v.recipients),
    enabled: v.enabled,
  };
}

/** The fields the shared schema refuses in `v` (first issue of each field). */
export function bodyIssues(v: ScheduleFormValues): Partial<Record<keyof ScheduleFormValues, string>> {
  const parsed = scheduleBodySchema.safeParse(scheduleBody(v));
  if (parsed.success) return {};
  const out: Partial<Record<keyof ScheduleFormValues, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof ScheduleFormValues | undefined;
    if (field && !out[field]) out[field] = issue.message;
  }
  return out;
}

/** An hour of the day as HH:00. */
export const hourText = (h: number) => `${String(h).padStart(2, '0')}:00`;
