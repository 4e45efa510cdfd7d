// The audit log: what is recorded (never a password or a token) and how it is read and exported.
import type { Page } from '@iotc/shared/envelope';
import type { AuditLogQuery, AuditLogRow } from '@iotc/shared/audit';
import { MAX_EXPORT_ROWS, type ExportFormat } from '@iotc/shared/list';
import type { Lang } from '@iotc/shared/i18n';
import { AppError } from '../../lib/errors.ts';
import { toPage } from '../../db/list.ts';
import { exportRows, type ExportColumn, type ExportFile } from '../../lib/export.ts';
import type { Caller } from '../../lib/caller.ts';
import type { ClientMeta } from '../../lib/caller.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { AuditRepo, AuditWriter } from './repo.ts';
import { DICTS } from '../../db/seed-data.ts';

/** The actions' labels: the `audit_action` dictionary (the console's filter and column read the same). */
const ACTION: Record<string, { zh: string; en: string }> = Object.fromEntries(
  (DICTS.find((d) => d.code === 'audit_action')?.items ?? []).map(([code, zh, en]) => [code, { zh, en }]),
);
const RESULT = { success: { zh: '成功', en: 'Success' }, failure: { zh: '失败', en: 'Failure' } } as const;

function columns(lang: Lang): ExportColumn<AuditLogRow>[] {
  return [
    { header: { zh: '时间', en: 'Time' }, value: (r) => new Date(r.time), width: 21 },
    { header: { zh: '组织', en: 'Organisation' }, value: (r) => r.orgName, width: 24 },
    { header: { zh: '账号', en: 'Account' }, value: (r) => r.account },
    { header: { zh: '操作', en: 'Action' }, value: (r) => ACTION[r.action]?.[lang] ?? r.action },
    { header: { zh: '结果', en: 'Result' }, value: (r) => RESULT[r.result][lang] },
    { header: { zh: 'IP 地址', en: 'IP address' }, value: (r) => r.ip },
    { header: { zh: '详情', en: 'Detail' }, value: (r) => r.detail, width: 40 },
    { header: { zh: '客户端', en: 'Client' }, value: (r) => r.userAgent, width: 40 },
  ];
}

/**
 * The recorder of a service's successful changes: who (the caller), in which organisation, what
 * and on what, from where. It writes through q, the transaction of the change (or the database
 * for a change of one statement): the change and its row commit together, and a failed write
 * fails the change.
 */
export function successRecorder(audit: AuditWriter) {
  return (q: Db | Tx, caller: Caller, orgId: string, action: string, detail: string, meta: ClientMeta) =>
    audit(q, { orgId, userId: caller.userId, account: caller.account, action, result: 'success', detail, ...meta });
}

export function auditService(repo: AuditRepo) {
  return {
    async list(caller: Caller, q: AuditLogQuery): Promise<Page<AuditLogRow>> {
      const { rows, total } = await repo.page(caller.scope.orgs, q);
      return toPage(rows, total, q);
    },

    async export(caller: Caller, q: AuditLogQuery, format: ExportFormat, lang: Lang, tz: string): Promise<ExportFile> {
      if ((await repo.count(caller.scope.orgs, q)) > MAX_EXPORT_ROWS) throw new AppError(400, 'EXPORT_TOO_LARGE');
      const rows = await repo.rows(caller.scope.orgs, q, { limit: MAX_EXPORT_ROWS, offset: 0 });
      return exportRows({
        format,
        lang,
        timezone: tz,
        name: { zh: '操作日志', en: 'audit-log' },
        sheet: { zh: '操作日志', en: 'Audit log' },
        columns: columns(lang),
        rows,
      });
    },
  };
}
export type AuditService = ReturnType<typeof auditService>;
