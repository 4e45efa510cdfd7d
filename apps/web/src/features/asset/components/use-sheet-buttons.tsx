// The spreadsheet buttons of a list's toolbar: Import (for writers) and Export to Excel or CSV
// of every row the filters match; one export at a time.
import { FileExcelOutlined, FileTextOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TopButton } from '../../../components/data-table/types.ts';
import { exportList, type FilterValues } from '../../../lib/list-query.ts';
import { useExport } from '../../../lib/use-export.ts';

export interface SheetButtonsOptions {
  /** The resource's path (`/api/iot/v2/vehicles`). */
  path: string;
  /** The list's filters and order in force: the export covers every row they match. */
  filters: FilterValues;
  sort?: string;
  /** Opens the import dialog; null when the user may not write. */
  onImport: (() => void) | null;
  /** Prefix of the buttons' data-testid (`vehicle` gives `vehicle-import`, `vehicle-export-xlsx`). */
  testPrefix: string;
}

export function useSheetButtons({ path, filters, sort, onImport, testPrefix }: SheetButtonsOptions): TopButton[] {
  const { t } = useTranslation();
  const { exporting, download } = useExport(
    (format) => exportList(path, format, { filters, sort }),
    (name) => t('asset.exported', { name }),
  );

  return [
    ...(onImport ? [{ name: 'asset.import.button', icon: <UploadOutlined />, testId: `${testPrefix}-import`, onClick: onImport }] : []),
    { name: 'asset.exportXlsx', icon: <FileExcelOutlined />, testId: `${testPrefix}-export-xlsx`, disabled: exporting !== null, onClick: () => void download('xlsx') },
    { name: 'asset.exportCsv', icon: <FileTextOutlined />, testId: `${testPrefix}-export-csv`, disabled: exporting !== null, onClick: () => void download('csv') },
  ];
}
