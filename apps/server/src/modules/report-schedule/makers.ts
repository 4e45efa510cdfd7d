// What makes the file of each kind of scheduled report: the same services (and so the same
// checks, data and layout) the Reports screens download from, given the schedule's period,
// subjects, format, language and time zone. The scheduled reports plugin passes the report services in.
import {
  alarmReportQuerySchema,
  mileageReportQuerySchema,
  onlineReportQuerySchema,
  type AlarmReportQuery,
  type FileFormat,
  type MileageReportQuery,
  type OnlineReportQuery,
  type ReportPeriod,
  type ScheduleKind,
} from '@iotc/shared/ops-report';
import type { GspReportQuery } from '@iotc/shared/gsp-report';
import type { Lang } from '@iotc/shared/i18n';
import type { ExportFile } from '../../lib/export.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../lib/caller.ts';

/** Makes one report file: `range.date` is the first day (YYYY-MM-DD) of the period reported. */
export type ReportMaker = (
  caller: Caller,
  range: { period: ReportPeriod; date: string },
  subjectIds: string[],
  format: FileFormat,
  lang: Lang,
  tz: string,
) => Promise<ExportFile>;

/** A report service that writes files (the shape of gsp.ts and the operations reports). */
export interface FileService<Q> {
  file(caller: Caller, q: Q, format: FileFormat, lang: Lang, tz: string): Promise<ExportFile>;
}

const unavailable: ReportMaker = () => Promise.reject(new AppError(400, 'REPORT_SCHEDULE_KIND_UNAVAILABLE'));

/** Empty subjects mean "all of the organisation's" to the operations reports. */
const idsOrAll = (ids: string[]) => (ids.length ? ids : undefined);

export function reportMakers(services: {
  gsp: FileService<GspReportQuery>;
  alarm?: FileService<AlarmReportQuery>;
  online?: FileService<OnlineReportQuery>;
  mileage?: FileService<MileageReportQuery>;
}): Record<ScheduleKind, ReportMaker> {
  const { gsp, alarm, online, mileage } = services;
  return {
    async temperature(caller, range, subjectIds, format, lang, tz) {
      // The GSP record exists for a day (YYYY-MM-DD) and a month (YYYY-MM) only.
      if (range.period === 'week') throw new AppError(400, 'REPORT_SCHEDULE_KIND_UNAVAILABLE');
      const [assetId] = subjectIds;
      if (!assetId) throw new AppError(400, 'REPORT_SCHEDULE_ASSET_UNKNOWN');
      const date = range.period === 'month' ? range.date.slice(0, 7) : range.date;
      return gsp.file(caller, { assetId, period: range.period, date, format }, format, lang, tz);
    },
    alarm: alarm
      ? (caller, range, subjectIds, format, lang, tz) =>
          alarm.file(caller, alarmReportQuerySchema.parse({ period: range.period, date: range.date, format, assetIds: idsOrAll(subjectIds) }), format, lang, tz)
      : unavailable,
    online: online
      ? (caller, range, subjectIds, format, lang, tz) =>
          online.file(caller, onlineReportQuerySchema.parse({ period: range.period, date: range.date, format, deviceIds: idsOrAll(subjectIds) }), format, lang, tz)
      : unavailable,
    mileage: mileage
      ? (caller, range, subjectIds, format, lang, tz) =>
          mileage.file(caller, mileageReportQuerySchema.parse({ period: range.period, date: range.date, format, assetIds: idsOrAll(subjectIds) }), format, lang, tz)
      : unavailable,
  };
}
