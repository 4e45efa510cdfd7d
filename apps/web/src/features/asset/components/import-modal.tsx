// Importing a resource from an .xlsx sheet (the shared import dialog, with this feature's texts).
// A device import answers the secrets of the new devices, shown here this once.
import { Alert, App } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ImportResult } from '@iotc/shared/asset';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { TableDescriptor } from '../../../components/data-table/types.ts';
import {
  ImportDialog,
  ImportErrorTable as SharedErrorTable,
  ImportOutcome as SharedOutcome,
  type FieldLabels,
  type ImportDialogTexts,
} from '../../../components/import-dialog.tsx';
import { usePaged } from '../../../components/use-paged.ts';
import { copyText } from '../../../lib/clipboard.ts';
import { downloadTemplate, useImportSheet } from '../api/sheets.ts';

export type { FieldLabels } from '../../../components/import-dialog.tsx';

type ImportSecret = NonNullable<ImportResult['secrets']>[number];

function useImportTexts(): ImportDialogTexts {
  const { t } = useTranslation();
  return {
    template: t('asset.import.template'),
    drop: t('asset.import.drop'),
    onlyXlsx: t('asset.import.onlyXlsx'),
    submit: t('asset.import.submit'),
    close: t('asset.import.close'),
    refused: (count) => t('asset.import.refused', { count }),
    done: (r) => t('asset.import.done', { created: r.created, updated: r.updated }),
    row: t('asset.import.row'),
    field: t('asset.import.field'),
    message: t('asset.import.message'),
    wholeRow: t('asset.import.wholeRow'),
  };
}

/** The errors of a refused sheet: row (the sheet's own number), column, problem. */
export function ImportErrorTable({ errors, fieldLabels }: { errors: ImportResult['errors']; fieldLabels?: FieldLabels }) {
  return <SharedErrorTable errors={errors} texts={useImportTexts()} fieldLabels={fieldLabels} />;
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

/** Under a stored outcome: the secrets of any new devices. */
function storedSecrets(result: ImportResult) {
  return result.secrets?.length ? <SecretsTable secrets={result.secrets} /> : null;
}

/** What an import answered: the rows refused, or what was stored (and any new device secrets). */
export function ImportOutcome({ result, fieldLabels }: { result: ImportResult; fieldLabels?: FieldLabels }) {
  return <SharedOutcome result={result} texts={useImportTexts()} fieldLabels={fieldLabels} stored={storedSecrets} />;
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

export function ImportModal({ open, onClose, path, what, templateName, fieldLabels }: ImportModalProps) {
  const { t } = useTranslation();
  const run = useImportSheet();
  return (
    <ImportDialog
      open={open}
      onClose={onClose}
      title={t('asset.import.title', { what })}
      hint={t('asset.import.hint')}
      texts={useImportTexts()}
      onTemplate={() => downloadTemplate(path, templateName)}
      onImport={(file) => run.mutateAsync({ path, file })}
      className="asset-import-modal"
      fieldLabels={fieldLabels}
      stored={storedSecrets}
    />
  );
}
