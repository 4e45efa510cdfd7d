// The task form's server-searched pickers: the devices on the goods (several, the first one's
// position is the task's) and the vehicle or container carrying them.
import { useEffect, useMemo, useRef } from 'react';
import { Empty, Select, Spin, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { MAX_TASK_DEVICES } from '@iotc/shared/transport';
import type { AssetRow } from '@iotc/shared/asset';
import { AssetPicker } from '../../../components/asset-picker.tsx';
import { useRemoteOptions, type RemoteOption } from '../../../components/remote-select.tsx';
import { CARRIER_KINDS, foundCarrier, searchCarriers, type CarrierKind } from '../api/carrier-options.ts';
import { searchDevices } from '../../../api/pickers.ts';

export interface DevicesSelectProps {
  id?: string;
  value?: string[];
  onChange?: (ids: string[]) => void;
  /** Labels of devices already on the task (before any search). */
  known?: RemoteOption[];
  'data-testid'?: string;
}

export function DevicesSelect({ id, value, onChange, known = [], ...rest }: DevicesSelectProps) {
  const { t } = useTranslation();
  const { options, loading, search } = useRemoteOptions(searchDevices, known);
  // Labels seen so far, so picked devices keep their names whatever the current search shows.
  const labels = useRef(new Map<string, string>());
  useEffect(() => {
    for (const o of [...known, ...options]) labels.current.set(o.value, o.label);
  }, [known, options]);
  const picked = useMemo(() => value ?? [], [value]);
  const shown = useMemo(() => {
    const found = new Set(options.map((o) => o.value));
    const kept = picked.filter((v) => !found.has(v)).map((v) => ({ value: v, label: labels.current.get(v) ?? known.find((k) => k.value === v)?.label ?? v }));
    return [...kept, ...options];
  }, [options, picked, known]);
  return (
    <Select<string[], RemoteOption>
      id={id}
      mode="multiple"
      data-testid={rest['data-testid']}
      value={picked}
      options={shown}
      loading={loading}
      maxCount={MAX_TASK_DEVICES}
      placeholder={t('transport.task.devicesPlaceholder')}
      showSearch={{ filterOption: false, onSearch: search }}
      onOpenChange={(open) => {
        if (open && options.length === 0) search('');
      }}
      onChange={(next) => onChange?.(next)}
      tagRender={({ label, value: v, closable, onClose }) => (
        <Tag closable={closable} onClose={onClose} className="tt-device-tag" color={picked[0] === v ? 'blue' : undefined}>
          {label}
          {picked[0] === v ? <span className="tt-device-main"> · {t('transport.task.mainDevice')}</span> : null}
        </Tag>
      )}
      notFoundContent={loading ? <Spin size="small" /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.noData')} />}
    />
  );
}

export interface CarrierFieldProps {
  kind: CarrierKind;
  onKindChange: (kind: CarrierKind) => void;
  id?: string;
  value?: string | null;
  onChange?: (id: string | null) => void;
  known?: RemoteOption[];
  /** The carrier the user picked, as its search found it (to fill in its trackers and driver). */
  onPicked?: (carrier: AssetRow | undefined) => void;
}

/** The kind (vehicle or container), then a search of that kind by code or name. */
export function CarrierField({ kind, onKindChange, id, value, onChange, known, onPicked }: CarrierFieldProps) {
  const { t } = useTranslation();
  return (
    <AssetPicker<CarrierKind>
      kinds={CARRIER_KINDS}
      kind={kind}
      onKindChange={(k) => {
        onKindChange(k);
        onChange?.(null);
      }}
      kindName={(k) => t(`transport.carrier.${k}`)}
      kindLabel={t('transport.task.carrierKind')}
      kindTestId="tt-carrier-kind"
      kindWidth={130}
      // The carriers' own search: it keeps the rows, whose trackers and driver a pick fills in.
      search={searchCarriers}
      id={id}
      value={value ?? undefined}
      onChange={(v) => {
        onChange?.(v ?? null);
        if (v) onPicked?.(foundCarrier(v));
      }}
      initialOptions={known}
      placeholder={t('transport.task.carrierPlaceholder')}
      data-testid="tt-carrier"
    />
  );
}
