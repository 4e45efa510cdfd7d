// The stops of a task or a template form (issue 26 item 2): places of the library the goods pass
// in order between the origin and the destination. Added with the library picker, moved up and
// down and removed by buttons (each named for its stop, so a keyboard and a screen reader can
// use them; the focus follows a moved stop); at most MAX_TASK_STOPS.
import { useRef } from 'react';
import { Button, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PlaceRow } from '@iotc/shared/place';
import { MAX_TASK_STOPS } from '@iotc/shared/transport';
import { PlacePicker } from '../../../components/place-picker.tsx';
import { stopFromPlace, type StopValues } from './task-model.ts';

export interface StopsFieldProps {
  value?: StopValues[];
  onChange?: (stops: StopValues[]) => void;
  formName: string;
}

export function StopsField({ value, onChange, formName }: StopsFieldProps) {
  const { t } = useTranslation();
  const stops = value ?? [];
  const list = useRef<HTMLOListElement>(null);
  const testId = `${formName}-stops`;

  /** After a move the same button of the moved stop keeps the focus (or its other arrow at an end). */
  const focusLater = (index: number, action: 'up' | 'down') => {
    requestAnimationFrame(() => {
      const row = list.current?.querySelectorAll<HTMLElement>('[data-stop-row]')[index];
      const wanted = row?.querySelector<HTMLButtonElement>(`[data-action="${action}"]:not([disabled])`) ?? row?.querySelector<HTMLButtonElement>('[data-action]:not([disabled])');
      wanted?.focus();
    });
  };
  const move = (from: number, to: number, action: 'up' | 'down') => {
    if (to < 0 || to >= stops.length) return;
    const next = [...stops];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    onChange?.(next);
    focusLater(to, action);
  };
  const remove = (index: number) => {
    onChange?.(stops.filter((_, i) => i !== index));
    requestAnimationFrame(() => list.current?.parentElement?.querySelector<HTMLElement>(`[data-testid="${testId}-add"] input`)?.focus());
  };
  const add = (p: PlaceRow) => {
    if (stops.length < MAX_TASK_STOPS) onChange?.([...stops, stopFromPlace(p)]);
  };

  return (
    <div className="tt-stops" data-testid={testId}>
      {stops.length ? (
        <ol className="tt-stop-list" ref={list}>
          {stops.map((s, i) => {
            const n = i + 1;
            return (
              <li key={`${s.placeId}-${i}`} className="tt-stop-row" data-stop-row data-testid={`${testId}-row`}>
                <span className="tt-stop-index" aria-hidden>
                  {n}
                </span>
                <span className="tt-stop-text">
                  <span className="tt-stop-name" data-testid={`${testId}-name`}>
                    {s.name}
                  </span>
                  <Typography.Text type="secondary" className="tt-stop-coords">
                    {typeof s.lat === 'number' && typeof s.lon === 'number' ? `${s.lat.toFixed(5)}, ${s.lon.toFixed(5)} · ${s.radiusM ?? ''} m` : ''}
                  </Typography.Text>
                </span>
                <Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={i === 0} data-action="up" aria-label={t('transport.stops.up', { n, name: s.name })} onClick={() => move(i, i - 1, 'up')} />
                <Button size="small" type="text" icon={<ArrowDownOutlined />} disabled={i === stops.length - 1} data-action="down" aria-label={t('transport.stops.down', { n, name: s.name })} onClick={() => move(i, i + 1, 'down')} />
                <Button size="small" type="text" danger icon={<DeleteOutlined />} data-action="remove" aria-label={t('transport.stops.remove', { n, name: s.name })} onClick={() => remove(i)} />
              </li>
            );
          })}
        </ol>
      ) : (
        <Typography.Text type="secondary" className="tt-stop-none" data-testid={`${testId}-none`}>
          {t('transport.stops.none')}
        </Typography.Text>
      )}
      {stops.length < MAX_TASK_STOPS ? (
        <PlacePicker data-testid={`${testId}-add`} placeholder={t('transport.stops.add')} onPick={add} />
      ) : (
        <Typography.Text type="secondary">{t('transport.stops.full', { max: MAX_TASK_STOPS })}</Typography.Text>
      )}
    </div>
  );
}
