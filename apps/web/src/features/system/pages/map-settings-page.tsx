// system/map (issue 26, item 1): the platform administrator's choice of the base map's tiles for
// every organisation: the start-up default (MAP_TILE_*), OpenStreetMap's standard tiles, AutoNavi
// or Tencent (GCJ-02), a custom tile server, or none (the offline outline). A preview map shows
// the choice before it is saved; saving asks for confirmation.
import { useEffect, useMemo } from 'react';
import { Alert, Button, Card, Col, Form, Input, InputNumber, Radio, Row, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { MapConfig } from '@iotc/shared/live';
import { customTilesSchema, MAP_TILE_PRESETS, MAP_TILE_SOURCES, resolveMapTiles, type MapTileSource, type MapTilesSetting } from '@iotc/shared/map-tiles';
import { MapView } from '../../../components/map/map-view.tsx';
import { useLang } from '../../../lib/language.ts';
import { schemaRule } from '../../../lib/schema-rule.ts';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useMapTiles, useSaveMapTiles } from '../api/map-tiles.ts';
import '../components/system.css';

/** The custom fields are absent while another source is chosen (not rendered). */
interface FormValues {
  source: MapTileSource;
  tileUrl?: string;
  tileSubdomains?: string;
  tileAttribution?: string;
  tileCrs?: 'wgs84' | 'gcj02';
  tileMaxZoom?: number | null;
}

function settingOf(v: FormValues): MapTilesSetting {
  if (v.source !== 'custom') return { source: v.source };
  return {
    source: 'custom',
    custom: {
      tileUrl: (v.tileUrl ?? '').trim(),
      tileSubdomains: (v.tileSubdomains ?? '').trim() || null,
      tileAttribution: (v.tileAttribution ?? '').trim() || null,
      tileCrs: v.tileCrs ?? 'wgs84',
      tileMaxZoom: v.tileMaxZoom ?? 18,
    },
  };
}

/** The tiles the form shows (a custom address only once it is valid). */
function previewOf(v: FormValues | undefined, envDefault: MapConfig | undefined): MapConfig | null {
  if (!v?.source) return null;
  if (v.source === 'env') return envDefault ?? null;
  const setting = settingOf(v);
  if (setting.source !== 'custom') return resolveMapTiles(setting, MAP_TILE_PRESETS.none);
  const parsed = customTilesSchema.safeParse(setting.custom);
  return parsed.success ? parsed.data : MAP_TILE_PRESETS.none;
}

export default function MapSettingsPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form] = Form.useForm<FormValues>();
  const query = useMapTiles();
  const save = useSaveMapTiles();
  const confirm = useConfirmAction();
  const view = query.data;
  const values = Form.useWatch([], form) as FormValues | undefined;

  useEffect(() => {
    if (!view) return;
    const custom = view.setting.custom;
    form.setFieldsValue({
      source: view.setting.source,
      tileUrl: custom?.tileUrl ?? '',
      tileSubdomains: custom?.tileSubdomains ?? '',
      tileAttribution: custom?.tileAttribution ?? '',
      tileCrs: custom?.tileCrs ?? 'wgs84',
      tileMaxZoom: custom?.tileMaxZoom ?? 18,
    });
  }, [view, form]);

  const preview = useMemo(() => previewOf(values, view?.envDefault), [values, view?.envDefault]);
  const envText = view?.envDefault.tileUrl ?? t('mapSettings.noTiles');
  const customRule = (field: keyof typeof customTilesSchema.shape) => schemaRule(customTilesSchema.shape[field], lang);

  const onSave = async () => {
    const v = await form.validateFields();
    const setting = settingOf(v);
    confirm({
      title: t('mapSettings.confirmTitle'),
      content: t('mapSettings.confirmContent', { source: t(`mapSettings.source.${setting.source}`) }),
      action: () => save.mutateAsync(setting),
      success: t('mapSettings.saved'),
    });
  };

  return (
    <Card
      title={<span data-testid="screen-title">{t('mapSettings.title')}</span>}
      extra={
        <Button type="primary" onClick={() => void onSave().catch(() => undefined)} loading={save.isPending} disabled={!view} data-testid="map-settings-save">
          {t('mapSettings.save')}
        </Button>
      }
      data-testid="map-settings-page"
    >
      <Alert type="info" showIcon title={t('mapSettings.hint')} style={{ marginBottom: 16 }} data-testid="map-settings-hint" />
      <Row gutter={[24, 16]}>
        <Col xs={24} lg={10}>
          <Form form={form} layout="vertical" preserve initialValues={{ source: 'env', tileUrl: '', tileSubdomains: '', tileAttribution: '', tileCrs: 'wgs84', tileMaxZoom: 18 }}>
            <Form.Item name="source" label={t('mapSettings.sourceLabel')}>
              <Radio.Group data-testid="map-settings-source" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
                {MAP_TILE_SOURCES.map((s) => (
                  <Radio key={s} value={s} data-testid={`map-source-${s}`}>
                    {t(`mapSettings.source.${s}`)}
                    {s === 'env' ? (
                      <Typography.Text type="secondary" style={{ marginLeft: 8, wordBreak: 'break-all' }} data-testid="map-settings-env">
                        {envText}
                      </Typography.Text>
                    ) : null}
                  </Radio>
                ))}
              </Radio.Group>
            </Form.Item>
            {values?.source === 'custom' ? (
              <>
                <Form.Item name="tileUrl" label={t('mapSettings.tileUrl')} extra={t('mapSettings.tileUrlHint')} rules={[customRule('tileUrl')]}>
                  <Input placeholder="https://tiles.example.com/{z}/{x}/{y}.png" data-testid="map-settings-url" />
                </Form.Item>
                <Form.Item name="tileSubdomains" label={t('mapSettings.tileSubdomains')} extra={t('mapSettings.tileSubdomainsHint')}>
                  <Input placeholder="abc" maxLength={20} data-testid="map-settings-subdomains" />
                </Form.Item>
                <Form.Item name="tileAttribution" label={t('mapSettings.tileAttribution')} extra={t('mapSettings.tileAttributionHint')}>
                  <Input maxLength={300} data-testid="map-settings-attribution" />
                </Form.Item>
                <Row gutter={12}>
                  <Col span={12}>
                    <Form.Item name="tileCrs" label={t('mapSettings.tileCrs')}>
                      <Select
                        data-testid="map-settings-crs"
                        options={[
                          { value: 'wgs84', label: t('mapSettings.crs.wgs84') },
                          { value: 'gcj02', label: t('mapSettings.crs.gcj02') },
                        ]}
                      />
                    </Form.Item>
                  </Col>
                  <Col span={12}>
                    <Form.Item name="tileMaxZoom" label={t('mapSettings.tileMaxZoom')} rules={[{ required: true, message: t('mapSettings.tileMaxZoomRequired') }]}>
                      <InputNumber min={1} max={22} precision={0} style={{ width: '100%' }} data-testid="map-settings-max-zoom" />
                    </Form.Item>
                  </Col>
                </Row>
              </>
            ) : null}
          </Form>
          {view?.updatedAt ? (
            <Typography.Text type="secondary" data-testid="map-settings-updated">
              {t('mapSettings.updatedAt', { time: dayjs(view.updatedAt).format(DATETIME_FORMAT) })}
            </Typography.Text>
          ) : null}
        </Col>
        <Col xs={24} lg={14}>
          <Typography.Text strong>{t('mapSettings.preview')}</Typography.Text>
          <div style={{ marginTop: 8 }}>
            <MapView config={preview} height={420} testId="map-settings-preview" />
          </div>
        </Col>
      </Row>
    </Card>
  );
}
