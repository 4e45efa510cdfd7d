// The address search of the place and route forms (issue 26, item 3): type an address, pick one
// of the geocoder's places, and the form gets its coordinates (onPick). Searches wait for a
// pause in typing (useRemoteOptions); a failure is told by the API client in the user's
// language. Hidden when the server has no geocoder: the coordinates are typed as before.
import { useCallback, useState, type CSSProperties } from 'react';
import { Empty, Select, Spin } from 'antd';
import { EnvironmentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { GEOCODE_QUERY_MIN, type GeocodePlace } from '@iotc/shared/geocode';
import { searchPlaces, useGeocoderEnabled } from '../api/geocode.ts';
import { useLang } from '../lib/language.ts';
import { useRemoteOptions, type RemoteOption } from './remote-select.tsx';

export interface AddressSearchProps {
  onPick: (place: GeocodePlace) => void;
  style?: CSSProperties;
  'data-testid'?: string;
}

/** A place as a select option: its coordinates in the value, its address as the label. */
const optionOf = (p: GeocodePlace): RemoteOption => ({ value: `${p.lat},${p.lon}`, label: p.label });

export function AddressSearch({ onPick, style, ...rest }: AddressSearchProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const enabled = useGeocoderEnabled();
  const [text, setText] = useState('');
  const fetcher = useCallback(
    async (q: string, signal: AbortSignal) => (q.trim().length < GEOCODE_QUERY_MIN ? [] : (await searchPlaces(q.trim(), lang, signal)).map(optionOf)),
    [lang],
  );
  const { options, loading, search } = useRemoteOptions(fetcher);
  if (!enabled) return null;
  return (
    <Select<string, RemoteOption>
      data-testid={rest['data-testid']}
      aria-label={t('geocode.search')}
      style={{ width: '100%', ...style }}
      value={null}
      suffixIcon={<EnvironmentOutlined />}
      placeholder={t('geocode.placeholder')}
      showSearch={{
        filterOption: false,
        searchValue: text,
        onSearch: (next) => {
          setText(next);
          search(next);
        },
      }}
      options={options}
      loading={loading}
      popupMatchSelectWidth={false}
      onSelect={(value, option) => {
        const [lat, lon] = value.split(',').map(Number);
        if (Number.isFinite(lat) && Number.isFinite(lon)) onPick({ label: option.label, lat: lat!, lon: lon! });
        setText('');
      }}
      notFoundContent={
        loading ? <Spin size="small" /> : text.trim().length >= GEOCODE_QUERY_MIN ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('geocode.noMatch')} /> : null
      }
    />
  );
}
