// A click on a <MapView> reported as the WGS-84 point under the mouse (to six decimals, about
// 0.1 m), whatever coordinate system the tiles are drawn in: how a form picks a place on the map.
import { useEffect, useRef } from 'react';
import type * as L from 'leaflet';
import { useMap } from './map-view.tsx';

export function MapPick({ onPick }: { onPick: (lat: number, lon: number) => void }) {
  const base = useMap();
  const pick = useRef(onPick);
  useEffect(() => {
    pick.current = onPick;
  }, [onPick]);
  useEffect(() => {
    const onClick = (e: L.LeafletMouseEvent) => {
      const [lat, lon] = base.wgs84(e.latlng.lat, e.latlng.lng);
      pick.current(Number(lat.toFixed(6)), Number(lon.toFixed(6)));
    };
    base.map.on('click', onClick);
    return () => {
      base.map.off('click', onClick);
    };
  }, [base]);
  return null;
}
