// A DataTable bound to one server list: its page, size and sort come from the address
// (useListParams) and its rows, total, loading and failure from the list's query.
import type { Page } from '@iotc/shared/envelope';
import type { ListParams } from '../../lib/list-query.ts';
import { DataTable } from './data-table.tsx';
import type { Row, TableDescriptor } from './types.ts';

interface ListQueryResult<T> {
  data?: Page<T>;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

export function ServerTable<T extends Row>({
  descriptor,
  list,
  query,
  onLink,
}: {
  descriptor: TableDescriptor<T>;
  list: ListParams;
  query: ListQueryResult<T>;
  /** What a text-link cell opens. */
  onLink?: (row: T) => void;
}) {
  return (
    <DataTable
      descriptor={descriptor}
      rows={query.data?.rows ?? []}
      total={query.data?.total ?? 0}
      page={list.page}
      size={list.size}
      sort={list.sort}
      onChange={list.setTable}
      loading={query.isFetching}
      error={query.error}
      onRetry={() => void query.refetch()}
      onLink={onLink}
    />
  );
}
