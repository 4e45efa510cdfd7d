// Importing from an .xlsx sheet, shared by the features that import one: the template to fill,
// the file (picked or dropped, sent by us rather than by antd's uploader) and the outcome. A sheet
// with any error stores nothing: its errors are listed per row and field so the user can fix the
// sheet and try again. The texts come from the feature (its own i18n keys); what a stored import
// shows besides its counts (a device import's new secrets) goes in the `stored` slot.
import { useState, type ReactNode } from 'react';
import { Alert, App, Button, Modal, Space, Upload, type UploadFile } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ImportResult } from '@iotc/shared/asset';
import { apiErrorText } from '../lib/api-error.ts';
import { useLabel } from '../lib/label.ts';
import { useLang } from '../lib/language.ts';
import { DataTable } from './data-table/data-table.tsx';
import type { TableDescriptor } from './data-table/types.ts';
import { usePaged } from './use-paged.ts';
import './import-dialog.css';

type ImportError = ImportResult['errors'][number] & { key: number };

/** Which column of the sheet a field of the answer is: body field names to i18n keys (or texts). */
export type FieldLabels = Record<string, string>;

/** The texts of the outcome, already translated. */
export interface ImportOutcomeTexts {
  /** The alert of a refused sheet. */
  refused: (count: number) => string;
  /** The alert of a stored sheet. */
  done: (result: ImportResult) => string;
  /** Headers of the error table. */
  row: string;
  field: string;
  message: string;
  /** The field of an error about the row as a whole; without it the server's name is shown. */
  wholeRow?: string;
}

/** The texts of the dialog, already translated. */
export interface ImportDialogTexts extends ImportOutcomeTexts {
  /** The template button. */
  template: string;
  /** Inside the drop zone. */
  drop: string;
  /** The message when a file is no .xlsx. */
  onlyXlsx: string;
  submit: string;
  /** The footer's button once there is an outcome (Cancel before). */
  close: string;
}

/** An error about the row as a whole names no field. */
const ROW_FIELD = 'row';

/** The errors of a refused sheet: row (the sheet's own number), column, problem. */
export function ImportErrorTable({
  errors,
  texts,
  fieldLabels = {},
  testIdPrefix = '',
}: {
  errors: ImportResult['errors'];
  texts: ImportOutcomeTexts;
  fieldLabels?: FieldLabels;
  testIdPrefix?: string;
}) {
  const label = useLabel();
  const named = (field: string) =>
    field === ROW_FIELD && texts.wholeRow !== undefined ? texts.wholeRow : label(Object.hasOwn(fieldLabels, field) ? fieldLabels[field]! : field);
  const paged = usePaged(errors.map((e, key) => ({ ...e, field: named(e.field), key })));
  const descriptor: TableDescriptor<ImportError> = {
    id: 'import-errors',
    rowKey: 'key',
    pageSizes: 'small',
    columnSettings: false,
    serial: false,
    columns: [
      { key: texts.row, value: 'row', width: 90 },
      { key: texts.field, value: 'field', width: 180 },
      { key: texts.message, value: 'message' },
    ],
  };
  return (
    <div data-testid={`${testIdPrefix}import-errors`}>
      <DataTable descriptor={descriptor} {...paged} />
    </div>
  );
}

export interface ImportOutcomeProps {
  result: ImportResult;
  texts: ImportOutcomeTexts;
  fieldLabels?: FieldLabels;
  testIdPrefix?: string;
  /** Shown under the success alert of a stored sheet. */
  stored?: (result: ImportResult) => ReactNode;
}

/** What an import answered: the rows refused, or what was stored. */
export function ImportOutcome({ result, texts, fieldLabels, testIdPrefix = '', stored }: ImportOutcomeProps) {
  if (result.errors.length > 0) {
    return (
      <div data-testid={`${testIdPrefix}import-outcome`} data-outcome="refused">
        <Alert type="error" showIcon title={texts.refused(result.errors.length)} className="import-dialog-gap" />
        <ImportErrorTable errors={result.errors} texts={texts} fieldLabels={fieldLabels} testIdPrefix={testIdPrefix} />
      </div>
    );
  }
  return (
    <div data-testid={`${testIdPrefix}import-outcome`} data-outcome="stored">
      <Alert type="success" showIcon title={texts.done(result)} className="import-dialog-gap" />
      {stored?.(result)}
    </div>
  );
}

export interface ImportDialogProps {
  open: boolean;
  onClose: () => void;
  /** Already translated. */
  title: string;
  /** Beside the template button: how to fill the sheet. */
  hint: string;
  texts: ImportDialogTexts;
  /** Downloads the empty template; a failure has been shown by the HTTP client already. */
  onTemplate: () => Promise<unknown>;
  /** Sends the sheet. */
  onImport: (file: File) => Promise<ImportResult>;
  /** Put before every test id: `<prefix>import-submit`, `-close`, `-template`, `-file`, `-failure`, `-outcome`, `-errors`. */
  testIdPrefix?: string;
  /** Of the modal. */
  className?: string;
  /** The label of each field an error may name (the sheet's column). */
  fieldLabels?: FieldLabels;
  /** Shown under the success alert of a stored sheet. */
  stored?: (result: ImportResult) => ReactNode;
}

function isXlsx(file: { name: string }): boolean {
  return /\.xlsx$/i.test(file.name);
}

export function ImportDialog({ open, onClose, title, hint, texts, onTemplate, onImport, testIdPrefix = '', className, fieldLabels, stored }: ImportDialogProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [fetchingTemplate, setFetchingTemplate] = useState(false);
  const id = (name: string) => `${testIdPrefix}import-${name}`;

  const fileList: UploadFile[] = file ? [{ uid: 'sheet', name: file.name, status: 'done', size: file.size }] : [];

  const submit = async () => {
    if (!file) return;
    setFailure(null);
    setResult(null);
    setSubmitting(true);
    try {
      setResult(await onImport(file));
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    } finally {
      setSubmitting(false);
    }
  };

  const template = async () => {
    setFetchingTemplate(true);
    try {
      await onTemplate();
    } catch {
      // The HTTP client has already shown the server's reason.
    } finally {
      setFetchingTemplate(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      className={className}
      width={720}
      onCancel={onClose}
      afterClose={() => {
        setFile(null);
        setResult(null);
        setFailure(null);
      }}
      footer={
        <Space>
          <Button onClick={onClose} data-testid={id('close')}>
            {result ? texts.close : t('common.cancel')}
          </Button>
          <Button type="primary" data-testid={id('submit')} disabled={!file} loading={submitting} onClick={() => void submit()}>
            {texts.submit}
          </Button>
        </Space>
      }
      destroyOnHidden
    >
      <div className="import-dialog-head">
        <span className="import-dialog-muted">{hint}</span>
        <Button icon={<DownloadOutlined />} data-testid={id('template')} loading={fetchingTemplate} onClick={() => void template()}>
          {texts.template}
        </Button>
      </div>
      <Upload.Dragger
        accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        maxCount={1}
        multiple={false}
        fileList={fileList}
        data-testid={id('file')}
        beforeUpload={(picked) => {
          // The file is sent by onImport on Import; antd's uploader never sends anything.
          if (!isXlsx(picked)) {
            void message.error(texts.onlyXlsx);
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
        <p className="ant-upload-text">{texts.drop}</p>
      </Upload.Dragger>
      <div className="import-dialog-result">
        {failure ? <Alert type="error" showIcon title={failure} data-testid={id('failure')} /> : null}
        {result ? <ImportOutcome result={result} texts={texts} fieldLabels={fieldLabels} testIdPrefix={testIdPrefix} stored={stored} /> : null}
      </div>
    </Modal>
  );
}
