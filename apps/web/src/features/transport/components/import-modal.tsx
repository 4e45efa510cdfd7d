// Importing tasks from an .xlsx sheet: the shared import dialog with this feature's texts. A sheet
// with any error stores nothing: its errors are listed per row and column so the user can fix the
// sheet and try again.
import { useTranslation } from 'react-i18next';
import { ImportDialog } from '../../../components/import-dialog.tsx';
import { downloadTaskTemplate, useImportTasks } from '../api/task-import.ts';

export function TaskImportModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const run = useImportTasks();
  return (
    <ImportDialog
      open={open}
      onClose={onClose}
      title={t('transport.import.title')}
      hint={t('transport.import.hint')}
      texts={{
        template: t('transport.import.template'),
        drop: t('transport.import.drop'),
        onlyXlsx: t('transport.import.onlyXlsx'),
        submit: t('transport.import.submit'),
        close: t('transport.import.close'),
        refused: (count) => t('transport.import.refused', { count }),
        done: (r) => t('transport.import.done', { created: r.created, updated: r.updated }),
        row: t('transport.import.row'),
        field: t('transport.import.field'),
        message: t('transport.import.message'),
        wholeRow: t('transport.import.wholeRow'),
      }}
      onTemplate={() => downloadTaskTemplate(t('transport.import.templateFile'))}
      onImport={(file) => run.mutateAsync(file)}
      testIdPrefix="tt-"
      className="tt-import-modal"
    />
  );
}
