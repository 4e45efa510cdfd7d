// A position as the details show it: its coordinates as before and, when the server has a
// geocoder, the address there on a second line (issue 26, item 3).
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAddress } from '../api/geocode.ts';

export interface PositionTextProps {
  lat: number;
  lon: number;
  /** How the coordinates read; default "lat, lon". */
  text?: string;
  /** An address already known (typed with the place, stored with a warehouse): shown instead of asking the geocoder. */
  address?: string | null;
  'data-testid'?: string;
}

export function PositionText({ lat, lon, text, address: known, ...rest }: PositionTextProps) {
  const { t } = useTranslation();
  const looked = useAddress(known ? null : lat, known ? null : lon);
  const address = known || looked;
  return (
    <span className="position-text">
      {text ?? `${lat}, ${lon}`}
      {address && (
        <Typography.Text type="secondary" style={{ display: 'block' }} data-testid={rest['data-testid']} aria-label={`${t('geocode.address')}: ${address}`}>
          {address}
        </Typography.Text>
      )}
    </span>
  );
}
