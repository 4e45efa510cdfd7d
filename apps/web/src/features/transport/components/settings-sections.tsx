// The settings a template keeps and a task has too, as form sections shared by the task and the
// template drawers: origin and destination (typed, or picked by a click on the map), the stops
// between them (places of the library, in order), the planned
// route drawn on the same map or asked of the routing service along the roads, temperature and humidity ranges, alarm settings, recipients and how
// the start and the arrival are recognised. Contacts lists are shared too.
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Form, Input, InputNumber, Segmented, Select, Space, Switch, Tooltip, Typography, type FormInstance } from 'antd';
import { ClearOutlined, DeleteOutlined, NodeIndexOutlined, PlusOutlined, UndoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { errorText, type ErrorCode } from '@iotc/shared/errors';
import type { Lang } from '@iotc/shared/i18n';
import { MAX_ROUTE_POINTS, MAX_TASK_CONTACTS, taskPlaceSchema, type RoadRoute, type RouteSource } from '@iotc/shared/transport';
import { useAlarmLevels } from '../../../api/alarm-levels.ts';
import { useGeocoderEnabled } from '../../../api/geocode.ts';
import type { PlaceRow } from '@iotc/shared/place';
import { AddressSearch } from '../../../components/address-search.tsx';
import { PlacePicker } from '../../../components/place-picker.tsx';
import { useMapConfig } from '../../../api/map-config.ts';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { schemaIssue, schemaRule } from '../../../lib/schema-rule.ts';
import { useRoadRoute } from '../api/road-route.ts';
import { useRoutingConfig } from '../api/routing-config.ts';
import { PlaceMap, type MapCircle } from './place-map.tsx';
import { StopsField } from './stops-field.tsx';
import { km, roadRoutePoints, type PlaceValues, type SettingsValues, type StopValues } from './task-model.ts';

/** A titled block of a form. */
export function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="tt-section" data-testid={testId}>
      <Typography.Title level={5} className="tt-section-title">
        {title}
      </Typography.Title>
      {children}
    </section>
  );
}

/** A schema rule for a field that may stay empty. */
export function optionalRule(schema: z.ZodType, lang: Lang, fallback?: ErrorCode) {
  return {
    validator: (_rule: unknown, value: unknown) => {
      if (value === null || value === undefined || value === '') return Promise.resolve();
      const code = schemaIssue(schema, value, fallback);
      return code ? Promise.reject(new Error(errorText(code, lang))) : Promise.resolve();
    },
  };
}

/** The upper bound of a pair is not below its lower one. */
function notBelow(form: FormInstance, lower: string, lang: Lang) {
  return {
    validator: (_rule: unknown, value: number | null | undefined) => {
      const min = form.getFieldValue(lower) as number | null | undefined;
      if (value === null || value === undefined || min === null || min === undefined || value >= min) return Promise.resolve();
      return Promise.reject(new Error(errorText('RANGE_INVERTED', lang)));
    },
  };
}

type PickTarget = 'origin' | 'destination' | 'route';

function circleOf(p: PlaceValues | undefined): MapCircle | null {
  return p && typeof p.lat === 'number' && typeof p.lon === 'number' ? { lat: p.lat, lon: p.lon, radiusM: p.radiusM ?? 0 } : null;
}

function PlaceFields({ which, formName }: { which: 'origin' | 'destination'; formName: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const label = t(`transport.place.${which}`);
  const form = Form.useFormInstance();
  const geocoder = useGeocoderEnabled();
  // A place found by its address: its coordinates, the address, and its first part as the name when none is given.
  const pick = (place: { label: string; lat: number; lon: number }) => {
    form.setFieldValue([which, 'lat'], Math.round(place.lat * 1e6) / 1e6);
    form.setFieldValue([which, 'lon'], Math.round(place.lon * 1e6) / 1e6);
    form.setFieldValue([which, 'address'], place.label.slice(0, 200));
    if (!String(form.getFieldValue([which, 'name']) ?? '').trim()) form.setFieldValue([which, 'name'], place.label.split(',')[0]!.trim().slice(0, 100));
    void form.validateFields([[which, 'lat'], [which, 'lon'], [which, 'name']]).catch(() => undefined);
  };
  // A place of the library: its id is kept beside the copy, so a change to the place reaches the task or template.
  const fromLibrary = (p: PlaceRow) => {
    form.setFieldValue([which, 'placeId'], p.id);
    form.setFieldValue([which, 'name'], p.name);
    form.setFieldValue([which, 'lat'], p.lat);
    form.setFieldValue([which, 'lon'], p.lon);
    form.setFieldValue([which, 'radiusM'], Math.min(50_000, Math.max(50, Math.round(p.radiusM))));
    void form.validateFields([[which, 'lat'], [which, 'lon'], [which, 'name'], [which, 'radiusM']]).catch(() => undefined);
  };
  return (
    <fieldset className="tt-place" data-testid={`${formName}-${which}`}>
      <legend>{label}</legend>
      <Form.Item label={t('place.fromLibrary')}>
        <PlacePicker data-testid={`${formName}-${which}-library`} onPick={fromLibrary} />
      </Form.Item>
      <Form.Item name={[which, 'placeId']} hidden>
        <Input />
      </Form.Item>
      {geocoder && (
        <Form.Item label={t('geocode.search')}>
          <AddressSearch data-testid={`${formName}-${which}-search`} onPick={pick} />
        </Form.Item>
      )}
      <div className="tt-grid tt-grid-2">
        <Form.Item name={[which, 'name']} label={t('transport.place.name')} required rules={[schemaRule(taskPlaceSchema.shape.name, lang)]}>
          <Input maxLength={100} autoComplete="off" />
        </Form.Item>
        <Form.Item name={[which, 'address']} label={t('transport.place.address')}>
          <Input maxLength={200} autoComplete="off" />
        </Form.Item>
      </div>
      <div className="tt-grid tt-grid-3">
        <Form.Item name={[which, 'lat']} label={t('transport.place.lat')} required rules={[schemaRule(taskPlaceSchema.shape.lat, lang)]}>
          <InputNumber min={-90} max={90} step={0.000001} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name={[which, 'lon']} label={t('transport.place.lon')} required rules={[schemaRule(taskPlaceSchema.shape.lon, lang)]}>
          <InputNumber min={-180} max={180} step={0.000001} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name={[which, 'radiusM']} label={t('transport.place.radius')} rules={[optionalRule(taskPlaceSchema.shape.radiusM, lang, 'TASK_RADIUS_RANGE')]}>
          <InputNumber min={50} max={50_000} step={50} precision={0} suffix="m" style={{ width: '100%' }} />
        </Form.Item>
      </div>
    </fieldset>
  );
}

interface RouteEditorProps {
  value?: [number, number][];
  onChange?: (route: [number, number][]) => void;
  form: FormInstance;
  formName: string;
}

/**
 * The map of the places and the route; a click sets the chosen place or adds a route point. With
 * a routing service, "Road route" replaces the route by the one along the roads from the origin
 * through the drawn points to the destination; drawing again makes it a drawn route.
 */
function RouteEditor({ value, onChange, form, formName }: RouteEditorProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const mapConfig = useMapConfig();
  const routing = useRoutingConfig();
  const roadRoute = useRoadRoute();
  const [target, setTarget] = useState<PickTarget>('origin');
  // The last answer, shown while the form still holds its route (not after a reset to another task).
  const [routed, setRouted] = useState<RoadRoute | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const origin = Form.useWatch<PlaceValues | undefined>('origin', form);
  const destination = Form.useWatch<PlaceValues | undefined>('destination', form);
  const stops = Form.useWatch<StopValues[] | undefined>('stops', form);
  const stopCircles = useMemo(() => (stops ?? []).map(circleOf).filter((c): c is MapCircle => c !== null), [stops]);
  const routeSource = Form.useWatch<RouteSource | undefined>('routeSource', form);
  const route = useMemo(() => value ?? [], [value]);
  const originCircle = useMemo(() => circleOf(origin), [origin]);
  const destinationCircle = useMemo(() => circleOf(destination), [destination]);
  const isRoad = routeSource === 'routing' && route.length > 0;

  const setRoute = useCallback(
    (next: [number, number][]) => {
      form.setFieldValue('routeSource', next.length ? 'drawn' : 'none');
      setRouted(null);
      setFailure(null);
      onChange?.(next);
    },
    [form, onChange],
  );
  const askRoad = async () => {
    const from = circleOf(origin);
    const to = circleOf(destination);
    if (!from || !to) return;
    setFailure(null);
    try {
      // Drawn points lead the road; a road route asked again goes from origin through the stops to destination.
      const drawn = routeSource === 'routing' ? [] : route;
      const vias = stopCircles.map((c): [number, number] => [c.lat, c.lon]);
      const answer = await roadRoute.mutateAsync({ points: roadRoutePoints([from.lat, from.lon], drawn, [to.lat, to.lon], vias) });
      form.setFieldValue('routeSource', 'routing');
      setRouted(answer);
      onChange?.(answer.route);
    } catch (error) {
      setFailure(apiErrorText(error, lang));
    }
  };
  const routingOn = routing.data?.enabled === true;
  const placesSet = !!originCircle && !!destinationCircle;
  const roadHint = !routingOn ? t('transport.routing.notConfigured') : !placesSet ? t('transport.routing.needPlaces') : t('transport.routing.hint');
  const pick = useCallback(
    (lat: number, lon: number) => {
      if (target === 'route') {
        if (route.length < MAX_ROUTE_POINTS) setRoute([...route, [lat, lon]]);
        return;
      }
      form.setFieldValue([target, 'lat'], lat);
      form.setFieldValue([target, 'lon'], lon);
      void form.validateFields([
        [target, 'lat'],
        [target, 'lon'],
      ]).catch(() => undefined);
    },
    [target, route, setRoute, form],
  );

  return (
    <div className="tt-route" data-testid={`${formName}-route`}>
      <div className="tt-route-bar">
        <span className="tt-muted">{t('transport.map.clickSets')}</span>
        <Segmented<PickTarget>
          size="small"
          value={target}
          onChange={setTarget}
          data-testid={`${formName}-pick-target`}
          options={[
            { value: 'origin', label: t('transport.place.origin') },
            { value: 'destination', label: t('transport.place.destination') },
            { value: 'route', label: t('transport.route.points') },
          ]}
        />
        <Space size={4} className="tt-route-tools">
          <span className="tt-muted" data-testid={`${formName}-route-count`}>
            {t('transport.route.count', { count: route.length })}
          </span>
          <Button size="small" icon={<UndoOutlined />} disabled={!route.length} onClick={() => setRoute(route.slice(0, -1))} data-testid={`${formName}-route-undo`}>
            {t('transport.route.undo')}
          </Button>
          <Button size="small" icon={<ClearOutlined />} disabled={!route.length} onClick={() => setRoute([])} data-testid={`${formName}-route-clear`}>
            {t('transport.route.clear')}
          </Button>
          {/* The span takes the hover a disabled button does not get, so the tooltip says why. */}
          <Tooltip title={roadHint}>
            <span className="tt-route-road-wrap" data-testid={`${formName}-route-road-wrap`}>
              <Button
                size="small"
                icon={<NodeIndexOutlined />}
                disabled={!routingOn || !placesSet}
                loading={roadRoute.isPending}
                onClick={() => void askRoad()}
                data-testid={`${formName}-route-road`}
              >
                {t('transport.routing.button')}
              </Button>
            </span>
          </Tooltip>
        </Space>
      </div>
      {isRoad ? (
        <div className="tt-muted tt-route-road" data-testid={`${formName}-route-road-info`}>
          {routed && routed.route === value
            ? t('transport.routing.result', { km: km(routed.distanceM), min: Math.max(1, Math.round(routed.durationS / 60)) })
            : t('transport.routing.source')}
        </div>
      ) : null}
      {failure ? (
        <Alert type="error" showIcon title={failure} className="tt-route-road" data-testid={`${formName}-route-road-error`} />
      ) : null}
      <PlaceMap
        config={mapConfig.data ?? null}
        origin={originCircle}
        destination={destinationCircle}
        stops={stopCircles}
        route={route}
        routePoints={!isRoad}
        onPick={pick}
        height={300}
        testId={`${formName}-map`}
      />
    </div>
  );
}

export function PlacesSection({ form, formName }: { form: FormInstance; formName: string }) {
  const { t } = useTranslation();
  return (
    <Section title={t('transport.section.places')} testId={`${formName}-places`}>
      <PlaceFields which="origin" formName={formName} />
      <fieldset className="tt-place" data-testid={`${formName}-stops-set`}>
        <legend>{t('transport.stops.title')}</legend>
        <Form.Item name="stops" extra={t('transport.stops.hint')}>
          <StopsField formName={formName} />
        </Form.Item>
      </fieldset>
      <PlaceFields which="destination" formName={formName} />
      <Form.Item name="routeSource" hidden>
        <Input />
      </Form.Item>
      <Form.Item name="route" label={t('transport.route.title')} extra={t('transport.route.hint')}>
        <RouteEditor form={form} formName={formName} />
      </Form.Item>
    </Section>
  );
}

export function RangesSection({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <Section title={t('transport.section.ranges')}>
      <div className="tt-grid tt-grid-4">
        <Form.Item name="tempMin" label={t('transport.range.tempMin')}>
          <InputNumber min={-100} max={100} suffix="°C" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="tempMax" label={t('transport.range.tempMax')} dependencies={['tempMin']} rules={[notBelow(form, 'tempMin', lang)]}>
          <InputNumber min={-100} max={100} suffix="°C" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="humidityMin" label={t('transport.range.humidityMin')}>
          <InputNumber min={0} max={100} suffix="%" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="humidityMax" label={t('transport.range.humidityMax')} dependencies={['humidityMin']} rules={[notBelow(form, 'humidityMin', lang)]}>
          <InputNumber min={0} max={100} suffix="%" style={{ width: '100%' }} />
        </Form.Item>
      </div>
    </Section>
  );
}

/**
 * The task's alarm level: only the levels of the form's organisation (the one picked, else the
 * task's or template's, else the caller's), as the server accepts; a level of another
 * organisation left over from a change of organisation is taken away.
 */
export function AlarmSection({ form, formName, orgId }: { form: FormInstance; formName: string; orgId: string | undefined }) {
  const { t } = useTranslation();
  const lang = useLang();
  const levels = useAlarmLevels();
  const own = useMemo(() => (levels.data ?? []).filter((l) => l.orgId === orgId), [levels.data, orgId]);
  const options = own.map((l) => ({
    value: l.id,
    label: (
      <span>
        <span className="tt-swatch" style={{ background: l.color }} />
        {lang === 'zh' ? l.nameZh : l.nameEn}
      </span>
    ),
    title: lang === 'zh' ? l.nameZh : l.nameEn,
  }));
  const chosen = Form.useWatch(['alarm', 'levelId'], form) as string | null | undefined;
  useEffect(() => {
    if (chosen && levels.data && !own.some((l) => l.id === chosen)) form.setFieldValue(['alarm', 'levelId'], null);
  }, [chosen, own, levels.data, form]);
  return (
    <Section title={t('transport.section.alarm')}>
      <Form.Item name={['alarm', 'levelId']} label={t('transport.alarm.level')} extra={t('transport.alarm.levelHint')}>
        <Select allowClear options={options} loading={levels.isFetching} placeholder={t('filter.select')} data-testid={`${formName}-alarm-level`} style={{ maxWidth: 320 }} />
      </Form.Item>
      <Space size="large" wrap className="tt-switches">
        <Form.Item name={['alarm', 'temperature']} label={t('transport.alarm.temperature')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name={['alarm', 'humidity']} label={t('transport.alarm.humidity')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name={['alarm', 'door']} label={t('transport.alarm.door')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Space>
      <div className="tt-grid tt-grid-4">
        <Form.Item name={['alarm', 'yawM']} label={t('transport.alarm.yaw')} tooltip={t('transport.alarm.yawHint')}>
          <InputNumber min={10} max={100_000} precision={0} suffix="m" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name={['alarm', 'stayTimeoutMin']} label={t('transport.alarm.stay')} tooltip={t('transport.alarm.stayHint')}>
          <InputNumber min={1} max={7 * 1440} precision={0} suffix={t('transport.unit.min')} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name={['alarm', 'overspeedKmh']} label={t('transport.alarm.overspeed')}>
          <InputNumber min={1} max={300} suffix="km/h" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name={['alarm', 'durationS']} label={t('transport.alarm.duration')} tooltip={t('transport.alarm.durationHint')}>
          <InputNumber min={0} max={86_400} precision={0} suffix={t('transport.unit.s')} style={{ width: '100%' }} />
        </Form.Item>
      </div>
    </Section>
  );
}

/** A list of people: name, phone and e-mail each (task contacts, alarm recipients). */
export function ContactList({ name, testId, addText }: { name: 'contacts' | 'recipients'; testId: string; addText: string }) {
  const { t } = useTranslation();
  return (
    <Form.List name={name}>
      {(fields, { add, remove }) => (
        <div className="tt-contacts" data-testid={testId}>
          {fields.map((field, i) => (
            <div key={field.key} className="tt-contact-row" data-testid={`${testId}-row`}>
              <Form.Item name={[field.name, 'name']} label={i === 0 ? t('transport.contact.name') : undefined}>
                <Input maxLength={50} autoComplete="off" aria-label={t('transport.contact.name')} />
              </Form.Item>
              <Form.Item name={[field.name, 'phone']} label={i === 0 ? t('transport.contact.phone') : undefined}>
                <Input maxLength={30} autoComplete="off" aria-label={t('transport.contact.phone')} />
              </Form.Item>
              <Form.Item name={[field.name, 'email']} label={i === 0 ? t('transport.contact.email') : undefined}>
                <Input maxLength={100} autoComplete="off" aria-label={t('transport.contact.email')} />
              </Form.Item>
              <Form.Item label={i === 0 ? ' ' : undefined}>
                <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('transport.contact.remove')} onClick={() => remove(field.name)} />
              </Form.Item>
            </div>
          ))}
          <Button type="dashed" icon={<PlusOutlined />} disabled={fields.length >= MAX_TASK_CONTACTS} data-testid={`${testId}-add`} onClick={() => add({ name: '', phone: '', email: '' })}>
            {addText}
          </Button>
        </div>
      )}
    </Form.List>
  );
}

export function RecipientsSection({ formName }: { formName: string }) {
  const { t } = useTranslation();
  return (
    <Section title={t('transport.section.recipients')}>
      <ContactList name="recipients" testId={`${formName}-recipients`} addText={t('transport.contact.addRecipient')} />
    </Section>
  );
}

export function DetectionSection() {
  const { t } = useTranslation();
  return (
    <Section title={t('transport.section.detection')}>
      <Form.Item name={['detection', 'auto']} label={t('transport.detection.auto')} valuePropName="checked" extra={t('transport.detection.autoHint')}>
        <Switch />
      </Form.Item>
      <div className="tt-grid tt-grid-3">
        <Form.Item name={['detection', 'moveM']} label={t('transport.detection.moveM')}>
          <InputNumber min={10} max={5000} precision={0} suffix="m" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name={['detection', 'moveS']} label={t('transport.detection.moveS')}>
          <InputNumber min={10} max={86_400} precision={0} suffix={t('transport.unit.s')} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name={['detection', 'dwellS']} label={t('transport.detection.dwellS')}>
          <InputNumber min={10} max={7 * 86_400} precision={0} suffix={t('transport.unit.s')} style={{ width: '100%' }} />
        </Form.Item>
      </div>
    </Section>
  );
}

/** Every settings section in the order both forms show them. */
export function SettingsSections({ form, formName, orgId }: { form: FormInstance; formName: string; orgId: string | undefined }) {
  return (
    <>
      <PlacesSection form={form} formName={formName} />
      <RangesSection form={form} />
      <AlarmSection form={form} formName={formName} orgId={orgId} />
      <RecipientsSection formName={formName} />
      <DetectionSection />
    </>
  );
}

export type { SettingsValues };
