// A searchable pick list of the users an alarm or a work order may be handed to (GET /assignees),
// searched on the server as the user types.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchAssignees } from '../api/assignees.ts';
import { RemoteSelect, type RemoteOption } from './remote-select.tsx';

export interface AssigneeSelectProps {
  id?: string;
  value?: string | null;
  onChange?: (value: string | null) => void;
  /** Only users of this organisation's tree. */
  orgId?: string;
  /** The label of the current value before any search (e.g. "Name (account)"). */
  currentLabel?: string;
  'data-testid'?: string;
}

export function AssigneeSelect({ id, value, onChange, orgId, currentLabel, ...rest }: AssigneeSelectProps) {
  const { t } = useTranslation();
  const fetcher = useCallback(
    async (search: string, signal: AbortSignal): Promise<RemoteOption[]> =>
      (await fetchAssignees(search, signal, orgId)).map((u) => ({ value: u.id, label: `${u.name} (${u.account}) · ${u.orgName}` })),
    [orgId],
  );
  return (
    <RemoteSelect
      id={id}
      data-testid={rest['data-testid'] ?? 'assignee-select'}
      fetcher={fetcher}
      value={value ?? undefined}
      placeholder={t('assignee.placeholder')}
      initialOptions={value && currentLabel ? [{ value, label: currentLabel }] : undefined}
      onChange={(v) => onChange?.(v ?? null)}
    />
  );
}
