// Importing a resource from an .xlsx sheet: the template to fill, the file (picked or dropped,
// sent by us rather than by antd's uploader) and the outcome. A sheet with any error stores
// nothing: its errors are listed per row and field so the user can fix the sheet and try again.
// A device import answers the secrets of the new devices, shown here this once.
import { useState } from 'react';
import { Alert, App, Button, Modal, Space, Upload, type UploadFile } from 'antd';
import { CopyOutlined, DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ImportResult } from '@iotc/shared/asset';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { TableDescriptor } from '../../../components/data-table/types.ts';
import { apiErrorText } from '../../../lib/api-error.ts';
import { copyText } from '../../../lib/clipboard.ts';
import { useLabel } from '../../../lib/label.ts';
import { useLang } from '../../../lib/language.ts';
import { downloadTemplate, useImportSheet } from '../api/sheets.ts';

type ImportError = ImportResult['errors'][number] & { key: number };
type ImportSecret = NonNullable<ImportResult['secrets']>[number];

const ERROR_TABLE: TableDescriptor<ImportError> = {
  id: 'import-errors',
  rowKey: 'key',
  pageSizes: 'small',
  columnSettings: false,
  serial: false,
  columns: [
    { key: 'asset.import.row', value: 'row', width: 90 },
    { key: 'asset.import.field', value: 'field', width: 180 },
    { key: 'asset.import.message', value: 'message' },
  ],
};

/** One page of a list held in memory, paged as the server tables are. */
function usePaged<T>(rows: T[]) {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const last = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(page, last);
  return {
    rows: rows.slice((current - 1) * size, current * size),
    total: rows.length,
    page: current,
    size,
    onChange: (p: number, s: number) => {
      setPage(p);
      setSize(s);
    },
  };
}

/** Which column of the sheet a field of the answer is: body field names to i18n keys. */
export type FieldLabels = Record<string, string>;

/** An error about the row as a whole names no field. */
const ROW_FIELD = 'row';

/** The errors of a refused sheet: row (the sheet's own number), column, problem. */
export function ImportErrorTable({ errors, fieldLabels = {} }: { errors: ImportResult['errors']; fieldLabels?: FieldLabels }) {
  const label = useLabel();
  const named = (field: string) => label(field === ROW_FIELD ? 'asset.import.wholeRow' : Object.hasOwn(fieldLabels, field) ? fieldLabels[field]! : field);
  const paged = usePaged(errors.map((e, key) => ({ ...e, field: named(e.field), key })));
  return (
    <div data-testid="import-errors">
      <DataTable descriptor={ERROR_TABLE} {...paged} />
    </div>
  );
}

function SecretsTable({ secrets }: { secrets: ImportSecret[] }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const paged = usePaged(secrets);
  const copy = async (text: string) => {
    if (await copyText(text)) void message.success(t('asset.secret.copied'));
    else void message.error(t('asset.secret.copyFailed'));
  };
  const descriptor: TableDescriptor<ImportSecret> = {
    id: 'import-secrets',
    rowKey: 'deviceId',
    pageSizes: 'small',
    columnSettings: false,
    columns: [
      { key: 'asset.device.deviceId', value: 'deviceId' },
      { key: 'asset.secret.secret', value: 'secret' },
    ],
    topButtons: [
      {
        name: 'asset.import.copyAll',
        icon: <CopyOutlined />,
        testId: 'import-secrets-copy-all',
        onClick: () => void copy(secrets.map((s) => `${s.deviceId},${s.secret}`).join('\n')),
      },
    ],
    rowButtons: [{ name: 'asset.secret.copy', icon: <CopyOutlined />, showtype: 'i', testId: 'import-secret-copy', onClick: (r) => void copy(r.secret) }],
  };
  return (
    <div data-testid="import-secrets">
      <Alert type="warning" showIcon title={t('asset.import.secrets')} description={t('asset.secret.hint')} className="asset-gap" />
      <DataTable descriptor={descriptor} {...paged} />
    </div>
  );
}

/** What an import answered: the rows refused, or what was stored (and any new device secrets). */
export function ImportOutcome({ result, fieldLabels }: { result: ImportResult; fieldLabels?: FieldLabels }) {
  const { t } = useTranslation();
  if (result.errors.length > 0) {
    return (
      <div data-testid="import-outcome" data-outcome="refused">
        <Alert type="error" showIcon title={t('asset.import.refused', { count: result.errors.length })} className="asset-gap" />
        <ImportErrorTable errors={result.errors} fieldLabels={fieldLabels} />
      </div>
    );
  }
  return (
    <div data-testid="import-outcome" data-outcome="stored">
      <Alert type="success" showIcon title={t('asset.import.done', { created: result.created, updated: result.updated })} className="asset-gap" />
      {result.secrets?.length ? <SecretsTable secrets={result.secrets} /> : null}
    </div>
  );
}

export interface ImportModalProps {
  open: boolean;
  onClose: () => void;
  /** The resource's path (`/api/iot/v2/vehicles`). */
  path: string;
  /** What is imported, already translated ("Vehicles"). */
  what: string;
  /** File name of the template when the server names none. */
  templateName: string;
  /** The label of each field an error may name (the sheet's column). */
  fieldLabels?: FieldLabels;
}

function isXlsx(file: { name: string }): boolean {
  return /\.xlsx$/i.test(file.name);
}

export function ImportModal({ open, onClose, path, what, templateName, fieldLabels }: ImportModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const run = useImportSheet();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [fetchingTemplate, setFetchingTemplate] = useState(false);

  const fileList: UploadFile[] = file ? [{ uid: 'sheet', name: file.name, status: 'done', size: file.size }] : [];

  const submit = async () => {
    if (!file) return;
    setFailure(null);
    setResult(null);
    try {
      setResult(await run.mutateAsync({ path, file }));
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  const template = async () => {
    setFetchingTemplate(true);
    try {
      await downloadTemplate(path, templateName);
    } catch {
      // The HTTP client has already shown the server's reason.
    } finally {
      setFetchingTemplate(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('asset.import.title', { what })}
      className="asset-import-modal"
      width={720}
      onCancel={onClose}
      afterClose={() => {
        setFile(null);
        setResult(null);
        setFailure(null);
      }}
      footer={
        <Space>
          <Button onClick={onClose} data-testid="import-close">
            {result ? t('asset.import.close') : t('common.cancel')}
          </Button>
          <Button type="primary" data-testid="import-submit" disabled={!file} loading={run.isPending} onClick={() => void submit()}>
            {t('asset.import.submit')}
          </Button>
        </Space>
      }
      destroyOnHidden
    >
      <div className="asset-import-head">
        <span className="asset-muted">{t('asset.import.hint')}</span>
        <Button icon={<DownloadOutlined />} data-testid="import-template" loading={fetchingTemplate} onClick={() => void template()}>
          {t('asset.import.template')}
        </Button>
      </div>
      <Upload.Dragger
        accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        maxCount={1}
        multiple={false}
        fileList={fileList}
        data-testid="import-file"
        beforeUpload={(picked) => {
          // The file is sent by the API client on Import; antd's uploader never sends anything.
          if (!isXlsx(picked)) {
            void message.error(t('asset.import.onlyXlsx'));
            return Upload.LIST_IGNORE;
          }
          setFile(picked);
          setResult(null);
          setFailure(null);
          return false;
        }}
        onRemove={() => {
          setFile(null);
          setResult(null);
          return true;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('asset.import.drop')}</p>
      </Upload.Dragger>
      <div className="asset-import-result">
        {failure ? <Alert type="error" showIcon title={failure} data-testid="import-failure" /> : null}
        {result ? <ImportOutcome result={result} fieldLabels={fieldLabels} /> : null}
      </div>
    </Modal>
  );
}
