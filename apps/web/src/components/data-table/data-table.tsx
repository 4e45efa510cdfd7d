// The shared list table (spec section 2, "data table"): rendered from a TableDescriptor, with
// optional toolbar, serial numbers, selection, row actions, pagination and the custom-column
// dialog. Server mode shows one page and reports paging and sorting; local mode holds every row
// and scrolls them through antd's virtual list, so tens of thousands of rows stay smooth.
import { useMemo, useState, type HTMLAttributes, type Key, type MouseEvent, type ReactNode } from 'react';
import { Button, Empty, Table, type TableProps } from 'antd';
import { Outcome } from '../outcome.tsx';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_DEFAULT } from '@iotc/shared/constants';
import { dictsQueryOptions } from '../../api/dict-all.ts';
import { useLabel } from '../../lib/label.ts';
import { useLang } from '../../lib/language.ts';
import { Cell, effectiveType, isCellOutOfRange, type CellContext } from './column-render.tsx';
import { applyPreference, documentCookieJar, loadPreference } from './column-cookie.ts';
import { ColumnSettings } from './column-settings.tsx';
import { RowActions } from './row-actions.tsx';
import { TableToolbar } from './table-toolbar.tsx';
import { usePagination } from './pagination.ts';
import { useScrollRegion } from './scroll-region.ts';
import { columnWidth, DEFAULT_WIDTH, formatSort, parseSort, serialNumber } from './table-layout.ts';
import type { CellHandlers, ColumnPreference, Row, TableColumn, TableDescriptor } from './types.ts';
import './data-table.css';

export interface DataTableProps<T extends Row> extends CellHandlers<T> {
  descriptor: TableDescriptor<T>;
  rows: T[];
  /** 'server' (default): `rows` is one page of `total`; 'local': `rows` is everything, no paging or sorting. */
  mode?: 'server' | 'local';
  total?: number;
  page?: number;
  size?: number;
  /** Current sort as `field,asc|desc`. */
  sort?: string;
  /** Server mode: the user paged, changed the page size or sorted (a new sort goes back to page 1). */
  onChange?: (page: number, size: number, sort: string | undefined) => void;
  loading?: boolean;
  /** A failed load: shown with its text and a Retry button. */
  error?: unknown;
  onRetry?: () => void;
  selectedKeys?: Key[];
  onSelect?: (keys: Key[], rows: T[]) => void;
  /** Height of the scrolling body in local mode. */
  scrollY?: number;
  toolbarExtra?: ReactNode;
  /** A click on a row (outside its buttons and switches). */
  onRowClick?: (row: T) => void;
  /** The row shown as the current one (highlighted). */
  activeRowKey?: Key | null;
  /** What an empty table says; default 'No data'. */
  emptyText?: ReactNode;
  /** Header (and horizontal scroll bar) kept in view while the page scrolls; `offsetHeader` is the space above it. */
  sticky?: TableProps<T>['sticky'];
}

const SERIAL_WIDTH = 70;
const LOCAL_SCROLL_Y = 560;

/**
 * A column's shouldCellUpdate for immutable rows: draw again when the row object is new. Each set
 * of columns gets its own, and draws every row once more the first time it sees it, so a change
 * of the columns themselves (language, page, handlers) still reaches every cell.
 */
function rowChanged<T extends Row>(): (next: T, prev: T) => boolean {
  const drawn = new WeakSet<T>();
  return (next, prev) => {
    if (next !== prev || !drawn.has(next)) {
      drawn.add(next);
      return true;
    }
    return false;
  };
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : '';
}

export function DataTable<T extends Row>(props: DataTableProps<T>) {
  const { descriptor: d, rows, mode = 'server', loading, error, onRetry } = props;
  const { t } = useTranslation();
  const label = useLabel();
  const lang = useLang();
  const local = mode === 'local';
  const page = local ? 1 : (props.page ?? 1);
  const size = local ? rows.length : (props.size ?? PAGE_SIZE_DEFAULT);
  const settingsEnabled = d.columnSettings !== false;
  const pager = usePagination(d.pageSizes);

  const jar = useMemo(() => documentCookieJar(), []);
  const [pref, setPref] = useState<ColumnPreference | undefined>(() => (settingsEnabled ? loadPreference(jar, d.id) : undefined));
  const [settingsOpen, setSettingsOpen] = useState(false);

  // Only tables with dictionary columns ask for the dictionaries.
  const needsDicts = d.columns.some((c) => effectiveType(c) === 'source' && !!c.source);
  const dicts = useQuery({ ...dictsQueryOptions(lang), enabled: needsDicts }).data;

  const columns = useMemo(() => applyPreference(d.columns, pref), [d.columns, pref]);
  const { onSwitch, onLink, onCellButton, onChange } = props;
  const sort = local ? undefined : parseSort(props.sort);

  const { antColumns, scrollX } = useMemo(() => {
    const ctx: CellContext<T> = { dicts, onSwitch, onLink, onCellButton };
    const visible = columns.filter((c) => !c.hidden);
    const fixedWidths = visible.length >= 10;
    const list: ColumnsType<T> = [];
    if (d.serial !== false) {
      list.push({
        key: '__serial',
        title: t('table.serial'),
        width: SERIAL_WIDTH,
        align: 'center',
        fixed: fixedWidths ? 'left' : undefined,
        className: 'iotc-serial-cell',
        render: (_v, _row, index) => serialNumber(page, size, index),
      });
    }
    for (const column of visible) {
      list.push({
        key: column.value,
        dataIndex: column.value,
        title: label(column.key),
        width: columnWidth(column, visible.length, local || !!d.ellipsis),
        fixed: fixedWidths && column.fixedLeft ? 'left' : undefined,
        // One line per row keeps the virtual list's row height constant.
        ellipsis: (local || !!d.ellipsis) && effectiveType(column) !== 'html' && effectiveType(column) !== 'datetime',
        className: column.nowrap ? 'iotc-cell-nowrap' : undefined,
        sorter: !local && column.sortable ? true : undefined,
        sortOrder: sort?.field === column.value ? (sort.order === 'asc' ? 'ascend' : 'descend') : null,
        render: (_v, row) => <Cell row={row} column={column as TableColumn<T>} ctx={ctx} />,
        shouldCellUpdate: d.immutableRows ? rowChanged<T>() : undefined,
        onCell: column.testId
          ? (row: T) =>
              ({
                'data-testid': column.testId,
                'data-out-of-range': isCellOutOfRange(row, column as TableColumn<T>) ? 'true' : undefined,
              }) as HTMLAttributes<HTMLElement>
          : undefined,
      });
    }
    if (d.rowButtons?.length) {
      const buttons = d.rowButtons;
      list.push({
        key: '__actions',
        title: t('table.actions'),
        width: d.actionWidth ?? (fixedWidths ? 160 : undefined),
        // Wherever the table scrolls sideways, the actions stay in view.
        fixed: fixedWidths || d.overflowScroll ? 'right' : undefined,
        className: 'iotc-actions-cell',
        render: (_v, row) => <RowActions row={row} buttons={buttons} />,
      });
    }
    const x = fixedWidths ? list.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : DEFAULT_WIDTH), 0) : undefined;
    return { antColumns: list, scrollX: x };
  }, [columns, d.serial, d.rowButtons, d.actionWidth, d.overflowScroll, d.ellipsis, d.immutableRows, dicts, onSwitch, onLink, onCellButton, t, label, page, size, local, sort?.field, sort?.order]);

  const handleChange: TableProps<T>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (local || !onChange) return;
    const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
    const field = typeof s?.columnKey === 'string' ? s.columnKey : undefined;
    const nextSort = field && s?.order ? formatSort({ field, order: s.order === 'ascend' ? 'asc' : 'desc' }) : undefined;
    const nextSize = pagination.pageSize ?? size;
    // A new order or page size makes the old page number meaningless.
    const nextPage = extra.action === 'sort' || nextSize !== size ? 1 : (pagination.current ?? 1);
    onChange(nextPage, nextSize, nextSort);
  };

  const rowKey = d.rowKey as TableProps<T>['rowKey'];
  const { onRowClick, activeRowKey } = props;
  // Kept stable between renders: a table that updates live re-renders often.
  const onRow = useMemo(
    () =>
      onRowClick
        ? (row: T) => ({
            onClick: (e: MouseEvent<HTMLElement>) => {
              // Buttons, switches, links and checkboxes inside the row act on their own.
              if ((e.target as HTMLElement).closest('button, a, input, .ant-switch, .ant-checkbox-wrapper')) return;
              onRowClick(row);
            },
          })
        : undefined,
    [onRowClick],
  );
  const descriptorRowKey = d.rowKey;
  const rowClassName = useMemo(() => {
    if (activeRowKey === undefined || activeRowKey === null) return undefined;
    const keyOf = (row: T): Key | undefined =>
      typeof descriptorRowKey === 'function' ? descriptorRowKey(row) : ((row as Record<string, unknown>)[descriptorRowKey] as Key | undefined);
    return (row: T) => (keyOf(row) === activeRowKey ? 'iotc-row-active' : '');
  }, [activeRowKey, descriptorRowKey]);
  const scrollRef = useScrollRegion<HTMLDivElement>(t('table.scrollRegion'));
  const hasToolbar = !!(d.topButtons?.length || d.moreButtons?.length || settingsEnabled || props.toolbarExtra);

  return (
    <div
      ref={scrollRef}
      className={['iotc-data-table', local ? 'iotc-data-table-local' : '', onRowClick ? 'iotc-data-table-clickable' : ''].filter(Boolean).join(' ')}
      data-testid="data-table"
      data-table-id={d.id}
      data-mode={mode}
    >
      {hasToolbar ? (
        <TableToolbar
          buttons={d.topButtons}
          more={d.moreButtons}
          extra={props.toolbarExtra}
          onOpenSettings={settingsEnabled ? () => setSettingsOpen(true) : undefined}
        />
      ) : null}
      {error ? (
        <div className="iotc-table-error" data-testid="table-error" role="alert">
          <Outcome
            status="error"
            title={t('table.loadFailed')}
            subTitle={errorText(error)}
            extra={
              onRetry ? (
                <Button type="primary" data-testid="table-retry" onClick={onRetry}>
                  {t('common.retry')}
                </Button>
              ) : null
            }
          />
        </div>
      ) : (
        <Table<T>
          rowKey={rowKey}
          columns={antColumns}
          dataSource={rows}
          loading={loading}
          size="middle"
          bordered
          virtual={local}
          scroll={local ? { x: scrollX, y: props.scrollY ?? LOCAL_SCROLL_Y } : scrollX || d.overflowScroll ? { x: 'max-content' } : undefined}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={props.emptyText ?? t('table.noData')} /> }}
          onRow={onRow}
          rowClassName={rowClassName}
          sticky={props.sticky}
          rowSelection={
            d.selection
              ? {
                  selectedRowKeys: props.selectedKeys,
                  onChange: (keys, selected) => props.onSelect?.(keys, selected),
                }
              : undefined
          }
          pagination={
            local
              ? false
              : {
                  ...pager,
                  current: page,
                  pageSize: size,
                  total: props.total ?? rows.length,
                }
          }
          onChange={handleChange}
        />
      )}
      {local && !error ? (
        <div className="iotc-table-footer" data-testid="table-total">
          {t('table.total', { total: rows.length })}
        </div>
      ) : null}
      {settingsEnabled ? (
        <ColumnSettings open={settingsOpen} tableId={d.id} columns={columns} jar={jar} onSaved={setPref} onClose={() => setSettingsOpen(false)} />
      ) : null}
    </div>
  );
}
