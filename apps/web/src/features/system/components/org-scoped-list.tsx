// The layout of the users and roles screens: the organisation tree beside a filtered server
// table; picking an organisation narrows the list to it and its descendants (the `orgId` filter),
// and searching or resetting the filters keeps that choice.
import type { Page } from '@iotc/shared/envelope';
import { ServerTable } from '../../../components/data-table/server-table.tsx';
import type { Row, TableDescriptor } from '../../../components/data-table/types.ts';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import type { ListParams } from '../../../lib/list-query.ts';
import { withOrgFilter } from './org-tree-model.ts';
import { OrgTreePanel } from './org-tree-panel.tsx';

interface Props<T extends Row> {
  filters: FilterItem[];
  descriptor: TableDescriptor<T>;
  list: ListParams;
  query: { data?: Page<T>; isFetching: boolean; error: unknown; refetch: () => unknown };
}

export function OrgScopedList<T extends Row>({ filters, descriptor, list, query }: Props<T>) {
  const orgId = list.filters.orgId;
  return (
    <div className="system-split">
      <OrgTreePanel selectedId={orgId} allowDeselect onSelect={(id) => list.setFilters(withOrgFilter(list.filters, id))} />
      <div className="system-split-main">
        <FilterBar
          items={filters}
          value={list.filters}
          onSearch={(values) => list.setFilters(withOrgFilter(values, orgId))}
          onReset={() => list.setFilters(withOrgFilter({}, orgId))}
        />
        <ServerTable descriptor={descriptor} list={list} query={query} />
      </div>
    </div>
  );
}
