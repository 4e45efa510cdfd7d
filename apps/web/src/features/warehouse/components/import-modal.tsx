// Importing records from an .xlsx sheet (places by code, times in the user's time zone): the
// shared import dialog with this feature's texts. A sheet with any error stores nothing: its
// errors are listed per row and column so the sheet can be fixed and sent again.
import { useTranslation } from 'react-i18next';
import { ImportDialog } from '../../../components/import-dialog.tsx';
import { downloadRecordTemplate, useImportRecords } from '../api/record-import.ts';

export function RecordImportModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const run = useImportRecords();
  return (
    <ImportDialog
      open={open}
      onClose={onClose}
      title={t('warehouse.import.title')}
      hint={t('warehouse.import.hint')}
      texts={{
        template: t('warehouse.import.template'),
        drop: t('warehouse.import.drop'),
        onlyXlsx: t('warehouse.import.onlyXlsx'),
        submit: t('warehouse.import.submit'),
        close: t('warehouse.import.close'),
        refused: (count) => t('warehouse.import.refused', { count }),
        done: (r) => t('warehouse.import.done', { count: r.created }),
        row: t('warehouse.import.row'),
        field: t('warehouse.import.field'),
        message: t('warehouse.import.message'),
        wholeRow: t('warehouse.import.wholeRow'),
      }}
      onTemplate={() => downloadRecordTemplate(t('warehouse.import.templateFile'))}
      onImport={(file) => run.mutateAsync(file)}
      testIdPrefix="wh-"
      className="wh-import-modal"
    />
  );
}
