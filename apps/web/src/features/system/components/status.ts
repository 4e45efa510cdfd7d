// How the active/deactivated status of users and organisations shows: a coloured tag in
// tables, a select in filter bars.
import type { ButtonLookupItem } from '../../../components/data-table/types.ts';
import type { FilterOption } from '../../../components/filter-bar.tsx';

export const STATUS_BUTTONS: ButtonLookupItem[] = [
  { key: 'active', text: 'system.common.active', butType: 'tag', background: '#f6ffed', color: '#237804' },
  { key: 'disabled', text: 'system.common.disabled', butType: 'tag', background: '#f5f5f5', color: 'rgba(0, 0, 0, 0.6)' },
];

export const STATUS_OPTIONS: FilterOption[] = [
  { value: 'active', label: 'system.common.active' },
  { value: 'disabled', label: 'system.common.disabled' },
];
