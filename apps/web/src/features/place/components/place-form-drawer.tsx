// The new or edited place: a name, a circle (a click on the map sets the centre, the radius is
// typed) or a polygon (each click adds a corner; undo and clear), a note. An address search moves
// the circle's centre there. Saving a changed place changes every policy, template and task that
// uses it; the drawer says so.
import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Drawer, Form, Input, InputNumber, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { placeBodySchema, type PlaceRow, type PlaceShape } from '@iotc/shared/place';
import { errorText, isErrorCode } from '@iotc/shared/errors';
import { useMapConfig } from '../../../api/map-config.ts';
import { AddressSearch } from '../../../components/address-search.tsx';
import { MapPick } from '../../../components/map/map-pick.tsx';
import { MapView } from '../../../components/map/map-view.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { useSavePlace } from '../api/places.ts';
import { PlaceShapeLayer } from './place-shape-layer.tsx';

export type PlaceFormTarget = { mode: 'create' } | { mode: 'edit'; row: PlaceRow };

interface Values {
  name: string;
  shape: PlaceShape;
  lat: number | null;
  lon: number | null;
  radiusM: number | null;
  note: string;
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

export function PlaceFormDrawer({ target, open, onClose, afterClose }: { target: PlaceFormTarget | null; open: boolean; onClose: () => void; afterClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const save = useSavePlace();
  const mapConfig = useMapConfig();
  const [corners, setCorners] = useState<[number, number][]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const editing = target?.mode === 'edit' ? target.row : null;
  const shape = (Form.useWatch('shape', form) as PlaceShape | undefined) ?? 'circle';
  const lat = Form.useWatch('lat', form) as number | null | undefined;
  const lon = Form.useWatch('lon', form) as number | null | undefined;
  const radiusM = Form.useWatch('radiusM', form) as number | null | undefined;

  useEffect(() => {
    if (!open || !target) return;
    setFailure(null);
    form.resetFields();
    if (target.mode === 'edit') {
      const r = target.row;
      form.setFieldsValue({ name: r.name, shape: r.shape, lat: r.shape === 'circle' ? r.lat : null, lon: r.shape === 'circle' ? r.lon : null, radiusM: r.shape === 'circle' ? r.radiusM : 500, note: r.note });
      setCorners(r.polygon ?? []);
    } else {
      form.setFieldsValue({ name: '', shape: 'circle', lat: null, lon: null, radiusM: 500, note: '' });
      setCorners([]);
    }
  }, [open, target, form]);

  const drawn = useMemo(() => ({ shape, lat: lat ?? null, lon: lon ?? null, radiusM: radiusM ?? null, polygon: corners }), [shape, lat, lon, radiusM, corners]);

  const pick = (a: number, o: number) => {
    setFailure(null);
    if (shape === 'circle') {
      form.setFieldsValue({ lat: a, lon: o });
      void form.validateFields(['lat', 'lon']).catch(() => undefined);
    } else setCorners((c) => [...c, [a, o]]);
  };

  const submit = async () => {
    const ok = await form.validateFields().then(
      () => true,
      () => false,
    );
    if (!ok) return;
    const v = form.getFieldsValue(true) as Values;
    const input = v.shape === 'circle' ? { name: v.name, shape: v.shape, lat: v.lat ?? undefined, lon: v.lon ?? undefined, radiusM: v.radiusM ?? undefined, note: v.note ?? '' } : { name: v.name, shape: v.shape, polygon: corners, note: v.note ?? '' };
    const parsed = placeBodySchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      setFailure(isErrorCode(issue.message) ? errorText(issue.message, lang) : issue.message);
      return;
    }
    try {
      const row = await save.mutateAsync({ id: editing?.id ?? null, body: parsed.data });
      void message.success(t(editing ? 'place.saved' : 'place.created', { name: row.name }));
      onClose();
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };

  return (
    <Drawer
      open={open}
      size={720}
      title={editing ? t('place.editTitle', { name: editing.name }) : t('place.newTitle')}
      data-testid="place-drawer"
      onClose={onClose}
      afterOpenChange={(visible) => {
        if (!visible) afterClose();
      }}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="place-submit">
            {t('place.save')}
          </Button>
        </Space>
      }
    >
      {failure ? <Alert type="error" showIcon title={failure} data-testid="place-error" style={{ marginBottom: 12 }} /> : null}
      {editing ? <Alert type="info" showIcon title={t('place.changeHint')} style={{ marginBottom: 12 }} /> : null}
      <Form<Values> form={form} layout="vertical" onValuesChange={() => failure && setFailure(null)}>
        <Form.Item name="name" label={t('place.name')} rules={[{ required: true, whitespace: true, message: errorText('NAME_REQUIRED', lang) }]}>
          <Input maxLength={100} autoComplete="off" data-testid="place-name" />
        </Form.Item>
        <Form.Item name="shape" label={t('place.shape')}>
          <Radio.Group
            data-testid="place-shape"
            options={[
              { value: 'circle', label: t('place.shapeCircle') },
              { value: 'polygon', label: t('place.shapePolygon') },
            ]}
            optionType="button"
          />
        </Form.Item>
        {shape === 'circle' ? (
          <Space align="start" wrap>
            <Form.Item name="lat" label={t('place.lat')} rules={[{ required: true, message: errorText('LAT_REQUIRED', lang) }]}>
              <InputNumber min={-90} max={90} style={{ width: 160 }} data-testid="place-lat" />
            </Form.Item>
            <Form.Item name="lon" label={t('place.lon')} rules={[{ required: true, message: errorText('LON_REQUIRED', lang) }]}>
              <InputNumber min={-180} max={180} style={{ width: 160 }} data-testid="place-lon" />
            </Form.Item>
            <Form.Item name="radiusM" label={t('place.radius')} rules={[{ required: true, message: errorText('PLACE_RADIUS_RANGE', lang) }]}>
              <InputNumber min={10} max={100_000} style={{ width: 160 }} suffix="m" data-testid="place-radius" />
            </Form.Item>
          </Space>
        ) : (
          <Space style={{ marginBottom: 12 }} wrap>
            <Typography.Text data-testid="place-corners">{t('place.corners', { count: corners.length })}</Typography.Text>
            <Button size="small" disabled={corners.length === 0} onClick={() => setCorners((c) => c.slice(0, -1))} data-testid="place-undo">
              {t('place.undoCorner')}
            </Button>
            <Button size="small" disabled={corners.length === 0} onClick={() => setCorners([])} data-testid="place-clear">
              {t('place.clearCorners')}
            </Button>
          </Space>
        )}
        <Typography.Paragraph type="secondary">{shape === 'circle' ? t('place.circleHint') : t('place.polygonHint')}</Typography.Paragraph>
        {shape === 'circle' ? (
          <div style={{ marginBottom: 8 }}>
            <AddressSearch data-testid="place-address" onPick={(p) => pick(round6(p.lat), round6(p.lon))} />
          </div>
        ) : null}
        <div style={{ marginBottom: 16 }}>
          <MapView config={mapConfig.data ?? null} height={340} className="iotc-live-map tt-map-pick" testId="place-map">
            <PlaceShapeLayer value={drawn} />
            <MapPick onPick={pick} />
          </MapView>
        </div>
        <Form.Item name="note" label={t('place.note')}>
          <Input.TextArea rows={2} maxLength={500} showCount data-testid="place-note" />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
