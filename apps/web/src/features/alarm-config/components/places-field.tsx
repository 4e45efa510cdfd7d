// The allowed places of a rule (a depot, a customer's yard): each a name and a circle given by
// its centre (WGS-84) and radius in metres, edited as a list of rows; with a geocoder, a row's
// centre can be found by its address.
import { Button, Form, Input, InputNumber, Space } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { GeocodePlace } from '@iotc/shared/geocode';
import { AddressSearch } from '../../../components/address-search.tsx';
import { PlacePicker } from '../../../components/place-picker.tsx';
import type { FieldName } from './policy-form-model.ts';

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

export function PlacesField({ name, testId }: { name: FieldName; testId: string }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const pick = (row: number, place: GeocodePlace) => {
    const at = [...name, row];
    form.setFieldValue([...at, 'lat'], round6(place.lat));
    form.setFieldValue([...at, 'lon'], round6(place.lon));
    if (!String(form.getFieldValue([...at, 'name']) ?? '').trim()) form.setFieldValue([...at, 'name'], place.label.split(',')[0]!.trim().slice(0, 100));
    void form.validateFields([[...at, 'lat'], [...at, 'lon'], [...at, 'name']]).catch(() => undefined);
  };
  return (
    <Form.List name={name}>
      {(fields, { add, remove }) => (
        <div className="alarm-places" data-testid={testId}>
          {fields.map((field, i) => (
            <div key={field.key} className="alarm-place-row" data-testid={`${testId}-row`}>
              <Form.Item name={[field.name, 'name']} label={i === 0 ? t('alarmConfig.place.name') : undefined} className="alarm-place-name">
                <Input maxLength={100} autoComplete="off" placeholder={t('alarmConfig.place.name')} aria-label={t('alarmConfig.place.name')} />
              </Form.Item>
              <Form.Item name={[field.name, 'lat']} label={i === 0 ? t('alarmConfig.place.lat') : undefined}>
                <InputNumber min={-90} max={90} style={{ width: '100%' }} placeholder={t('alarmConfig.place.lat')} aria-label={t('alarmConfig.place.lat')} />
              </Form.Item>
              <Form.Item name={[field.name, 'lon']} label={i === 0 ? t('alarmConfig.place.lon') : undefined}>
                <InputNumber min={-180} max={180} style={{ width: '100%' }} placeholder={t('alarmConfig.place.lon')} aria-label={t('alarmConfig.place.lon')} />
              </Form.Item>
              <Form.Item name={[field.name, 'radiusM']} label={i === 0 ? t('alarmConfig.place.radius') : undefined}>
                <InputNumber min={10} max={100_000} style={{ width: '100%' }} suffix="m" placeholder={t('alarmConfig.place.radius')} aria-label={t('alarmConfig.place.radius')} />
              </Form.Item>
              <Form.Item label={i === 0 ? ' ' : undefined} className="alarm-place-remove">
                <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('alarmConfig.place.remove')} onClick={() => remove(field.name)} />
              </Form.Item>
              <div className="alarm-place-search">
                <AddressSearch data-testid={`${testId}-search`} onPick={(place) => pick(field.name, place)} />
              </div>
            </div>
          ))}
          <Space wrap>
            <Button type="dashed" icon={<PlusOutlined />} data-testid={`${testId}-add`} onClick={() => add({ name: '', lat: null, lon: null, radiusM: 500 })}>
              {t('alarmConfig.place.add')}
            </Button>
            <PlacePicker
              data-testid={`${testId}-library`}
              onPick={(p) => add({ placeId: p.id, name: p.name, lat: p.lat, lon: p.lon, radiusM: p.radiusM, ...(p.polygon ? { polygon: p.polygon } : {}) })}
            />
          </Space>
        </div>
      )}
    </Form.List>
  );
}
