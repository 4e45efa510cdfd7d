// "Pick from library": a search of the place library (GET /api/iot/v2/places) whose choice is
// handed over whole (name, centre, radius, polygon, id), for the alarm policy's allowed places
// and the transport forms' origin, destination and stops. The form keeps the place's id beside its
// copy, so a later change to the place reaches the form's record.
import { useCallback, useRef } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PlaceRow } from '@iotc/shared/place';
import { searchLibraryPlaces } from '../api/places.ts';
import { useRemoteOptions, type RemoteOption } from './remote-select.tsx';

export function PlacePicker({ onPick, style, placeholder, ...rest }: { onPick: (place: PlaceRow) => void; style?: React.CSSProperties; placeholder?: string; 'data-testid'?: string }) {
  const { t } = useTranslation();
  const rows = useRef(new Map<string, PlaceRow>());
  const fetcher = useCallback(async (q: string, signal: AbortSignal): Promise<RemoteOption[]> => {
    const found = await searchLibraryPlaces(q, signal);
    for (const r of found) rows.current.set(r.id, r);
    return found.map((r) => ({ value: r.id, label: `${r.name} (${r.shape === 'circle' ? t('place.shapeCircle') : t('place.shapePolygon')})` }));
  }, [t]);
  const { options, loading, search } = useRemoteOptions(fetcher);
  return (
    <Select<string | null, RemoteOption>
      value={null}
      style={{ minWidth: 240, ...style }}
      data-testid={rest['data-testid']}
      options={options}
      loading={loading}
      placeholder={placeholder ?? t('place.pick')}
      aria-label={placeholder ?? t('place.pick')}
      showSearch={{ filterOption: false, onSearch: search }}
      onOpenChange={(open) => {
        if (open) search('');
      }}
      onChange={(id) => {
        const row = id ? rows.current.get(id) : undefined;
        if (row) onPick(row);
      }}
    />
  );
}
