// One rule of a policy as a card: its type, level and on/off switch, the threshold with the
// type's unit (minutes for the time-based types), how long the condition must hold, the clear
// margin, an optional active schedule, and what only some types have (allowed places and times,
// the planned route). A field a type does not use is not shown.
import { Button, Card, Form, Input, InputNumber, Select, Switch, Tooltip, type FormInstance } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ALARM_TYPE_INFO, ALARM_TYPES, MAX_RULE_DURATION_S, type AlarmType, type LevelRow } from '@iotc/shared/alarm';
import type { Lang } from '@iotc/shared/i18n';
import { PlacesField } from './places-field.tsx';
import {
  inMinutes,
  showsAllowedTimes,
  showsDuration,
  showsHysteresis,
  showsPlaces,
  showsRoute,
  showsThreshold,
  thresholdRange,
  typeDefaults,
} from './policy-form-model.ts';
import { ScheduleFields } from './schedule-fields.tsx';

/** A level as a select option: its colour dot and its name in the user's language. */
export function LevelName({ level, lang }: { level: Pick<LevelRow, 'color' | 'nameZh' | 'nameEn'>; lang: Lang }) {
  return (
    <span className="alarm-level-name">
      <span className="alarm-level-dot" style={{ background: level.color }} />
      {lang === 'zh' ? level.nameZh : level.nameEn}
    </span>
  );
}

export interface RuleCardProps {
  form: FormInstance;
  /** The rule's name inside the rules list (its index there). */
  name: number;
  /** Position shown to the user (1-based). */
  position: number;
  levels: LevelRow[];
  lang: Lang;
  onRemove: () => void;
}

export function RuleCard({ form, name, position, levels, lang, onRemove }: RuleCardProps) {
  const { t } = useTranslation();
  const full = ['rules', name];
  const type = (Form.useWatch([...full, 'type'], form) as AlarmType | undefined) ?? 'temp_high';
  const id = Form.useWatch([...full, 'id'], form) as string | undefined;
  const scheduleOn = Form.useWatch([...full, 'scheduleOn'], form) as boolean | undefined;
  const allowedOn = Form.useWatch([...full, 'allowedOn'], form) as boolean | undefined;
  const info = ALARM_TYPE_INFO[type];
  const minutes = inMinutes(type);
  const unit = minutes ? t('alarmConfig.rule.minutes') : info.unit;
  const range = thresholdRange(type);
  const typeName = t(`alarmConfig.type.${type}`);

  const typeOptions = ALARM_TYPES.map((v) => ({ value: v, label: t(`alarmConfig.type.${v}`) }));
  const levelOptions = levels.map((l) => ({ value: l.id, label: <LevelName level={l} lang={lang} />, title: lang === 'zh' ? l.nameZh : l.nameEn }));

  return (
    <Card
      size="small"
      className="alarm-rule-card"
      data-testid="rule-card"
      data-rule-type={type}
      title={
        <span className="alarm-rule-title">
          {t('alarmConfig.rule.title', { n: position })}
          <span className="alarm-muted"> · {typeName}</span>
          {id ? <span className="alarm-muted alarm-rule-id"> ({id})</span> : null}
        </span>
      }
      extra={
        <span className="alarm-rule-extra">
          <Form.Item name={[name, 'enabled']} valuePropName="checked" noStyle>
            <Switch size="small" aria-label={t('alarmConfig.rule.enabled')} checkedChildren={t('alarmConfig.rule.on')} unCheckedChildren={t('alarmConfig.rule.off')} />
          </Form.Item>
          <Tooltip title={t('alarmConfig.rule.remove')}>
            <Button type="text" danger size="small" icon={<DeleteOutlined />} aria-label={t('alarmConfig.rule.remove')} data-testid="rule-remove" onClick={onRemove} />
          </Tooltip>
        </span>
      }
    >
      <div className="alarm-form-grid alarm-form-grid-3">
        <Form.Item name={[name, 'type']} label={t('alarmConfig.rule.type')} required>
          <Select
            options={typeOptions}
            showSearch={{ optionFilterProp: 'label' }}
            data-testid="rule-type"
            // A new type starts from its own defaults: a temperature threshold means nothing as a speed.
            onChange={(next: AlarmType) => {
              const defaults = typeDefaults(next);
              form.setFieldValue([...full, 'threshold'], defaults.threshold);
              form.setFieldValue([...full, 'hysteresis'], defaults.hysteresis);
            }}
          />
        </Form.Item>
        <Form.Item name={[name, 'levelId']} label={t('alarmConfig.rule.level')} required>
          <Select options={levelOptions} placeholder={t('filter.select')} notFoundContent={t('alarmConfig.rule.noLevels')} data-testid="rule-level" />
        </Form.Item>
        <Form.Item label={t('alarmConfig.rule.kind')}>
          <span className="alarm-muted" data-testid="rule-kind">
            {t(`alarmConfig.rule.kind.${info.kind}`)}
          </span>
        </Form.Item>
        {showsThreshold(type) ? (
          <Form.Item
            name={[name, 'threshold']}
            label={minutes ? t('alarmConfig.rule.thresholdMinutes') : t('alarmConfig.rule.threshold')}
            required
            extra={t('alarmConfig.rule.range', { min: range.min, max: range.max, unit })}
          >
            {/* No min / max here: a value out of range is refused with the shared rule's text, not silently clamped. */}
            <InputNumber style={{ width: '100%' }} suffix={unit || undefined} data-testid="rule-threshold" />
          </Form.Item>
        ) : null}
        {showsDuration(type) ? (
          <Form.Item name={[name, 'durationS']} label={t('alarmConfig.rule.duration')} extra={t('alarmConfig.rule.durationHint')}>
            <InputNumber min={0} max={MAX_RULE_DURATION_S} precision={0} style={{ width: '100%' }} suffix={t('alarmConfig.rule.seconds')} data-testid="rule-duration" />
          </Form.Item>
        ) : null}
        {showsHysteresis(type) ? (
          <Form.Item name={[name, 'hysteresis']} label={t('alarmConfig.rule.hysteresis')} extra={t('alarmConfig.rule.hysteresisHint')}>
            <InputNumber min={0} style={{ width: '100%' }} suffix={info.unit || undefined} data-testid="rule-hysteresis" />
          </Form.Item>
        ) : null}
      </div>

      <Form.Item name={[name, 'scheduleOn']} valuePropName="checked" label={t('alarmConfig.rule.schedule')} className="alarm-inline-switch">
        <Switch size="small" data-testid="rule-schedule-on" checkedChildren={t('alarmConfig.rule.scheduleOn')} unCheckedChildren={t('alarmConfig.rule.always')} />
      </Form.Item>
      {scheduleOn ? <ScheduleFields form={form} name={[name, 'schedule']} fullName={[...full, 'schedule']} /> : null}

      {showsPlaces(type) ? (
        <Form.Item label={t(type === 'door_abnormal' ? 'alarmConfig.rule.placesDoor' : 'alarmConfig.rule.placesStay')} className="alarm-block">
          <PlacesField name={[name, 'places']} testId="rule-places" />
        </Form.Item>
      ) : null}

      {showsAllowedTimes(type) ? (
        <>
          <Form.Item name={[name, 'allowedOn']} valuePropName="checked" label={t('alarmConfig.rule.allowedTimes')} className="alarm-inline-switch">
            <Switch size="small" data-testid="rule-allowed-on" checkedChildren={t('alarmConfig.rule.allowedSome')} unCheckedChildren={t('alarmConfig.rule.allowedNever')} />
          </Form.Item>
          {allowedOn ? <ScheduleFields form={form} name={[name, 'allowedTimes']} fullName={[...full, 'allowedTimes']} /> : null}
        </>
      ) : null}

      {showsRoute(type) ? (
        <Form.Item name={[name, 'routeText']} label={t('alarmConfig.rule.route')} extra={t('alarmConfig.rule.routeHint')}>
          <Input.TextArea rows={4} placeholder={'31.2304,121.4737\n31.2989,120.5853'} data-testid="rule-route" />
        </Form.Item>
      ) : null}
    </Card>
  );
}
