// The spec's pagination (section 9) for every paged table, DataTable or a plain antd Table:
// PAGE_SIZE_DEFAULT rows a page, the main or small size options, and the layout total, sizes,
// prev, pager, next, jumper (pagination.css reorders antd's parts into it).
import type { TablePaginationConfig } from 'antd';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_DEFAULT } from '@iotc/shared/constants';
import { pageSizeOptions } from './table-layout.ts';
import './pagination.css';

export type PageSizeKind = 'main' | 'small';

/** Settings every paged table shares; a table paged by the server adds current, pageSize, total and onChange. */
export function paginationConfig(kind: PageSizeKind, totalText: (total: number) => string): TablePaginationConfig {
  return {
    defaultPageSize: PAGE_SIZE_DEFAULT,
    pageSizeOptions: pageSizeOptions(kind),
    showSizeChanger: true,
    showQuickJumper: true,
    showTotal: (total) => totalText(total),
    className: 'iotc-pagination',
  };
}

/** The spec's pagination in the user's language ('Total N items'). */
export function usePagination(kind: PageSizeKind = 'main'): TablePaginationConfig {
  const { t } = useTranslation();
  return paginationConfig(kind, (total) => t('table.total', { total }));
}
