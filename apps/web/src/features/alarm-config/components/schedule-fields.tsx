// A weekly time window of a rule (when it is active, or when a door may open anywhere): the days
// Monday to Sunday, a start and an end HH:mm and the time zone they are read in. An end at or
// before the start runs past midnight into the next day, and the form says so as it happens.
import { useMemo } from 'react';
import { Checkbox, Form, Select, TimePicker, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { ALL_DAYS, browserTimeZone, type FieldName } from './policy-form-model.ts';

const HHMM = /^(\d{2}):(\d{2})$/;

/** antd's TimePicker as a form field whose value is 'HH:mm'. */
export function TimeField({ id, value, onChange, placeholder }: { id?: string; value?: string | null; onChange?: (v: string | null) => void; placeholder?: string }) {
  const m = value ? HHMM.exec(value) : null;
  const shown = m ? dayjs().hour(Number(m[1])).minute(Number(m[2])).second(0).millisecond(0) : null;
  return (
    <TimePicker
      id={id}
      format="HH:mm"
      value={shown}
      needConfirm={false}
      placeholder={placeholder}
      onChange={(d) => onChange?.(d ? d.format('HH:mm') : null)}
      style={{ width: '100%' }}
    />
  );
}

function timeZones(current: string | undefined): string[] {
  let all: string[] = [];
  try {
    all = Intl.supportedValuesOf('timeZone');
  } catch {
    // An older browser lists none: the browser's own zone and UTC are still offered.
  }
  const extra = [current, browserTimeZone(), 'UTC'].filter((z): z is string => !!z && !all.includes(z));
  return [...extra, ...all];
}

function TimeZoneSelect({ id, value, onChange }: { id?: string; value?: string; onChange?: (v: string) => void }) {
  const { t } = useTranslation();
  const options = useMemo(() => timeZones(value).map((z) => ({ value: z, label: z })), [value]);
  return (
    <Select
      id={id}
      value={value}
      onChange={onChange}
      options={options}
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={t('filter.select')}
      notFoundContent={t('common.noData')}
      style={{ width: '100%' }}
    />
  );
}

export interface ScheduleFieldsProps {
  form: FormInstance;
  /** The schedule's name inside the rules list: [ruleIndex, 'schedule']. */
  name: FieldName;
  /** The same name from the form's root: ['rules', ruleIndex, 'schedule']. */
  fullName: FieldName;
}

export function ScheduleFields({ form, name, fullName }: ScheduleFieldsProps) {
  const { t } = useTranslation();
  const start = Form.useWatch([...fullName, 'start'], form) as string | null | undefined;
  const end = Form.useWatch([...fullName, 'end'], form) as string | null | undefined;
  const wraps = !!start && !!end && HHMM.test(start) && HHMM.test(end) && end <= start;
  const dayOptions = ALL_DAYS.map((d) => ({ value: d, label: t(`alarmConfig.day.${d as 1 | 2 | 3 | 4 | 5 | 6 | 7}`) }));
  return (
    <div className="alarm-schedule">
      <Form.Item name={[...name, 'days']} label={t('alarmConfig.schedule.days')} className="alarm-schedule-days">
        <Checkbox.Group options={dayOptions} />
      </Form.Item>
      <div className="alarm-form-grid alarm-form-grid-3">
        <Form.Item name={[...name, 'start']} label={t('alarmConfig.schedule.start')}>
          <TimeField placeholder={t('alarmConfig.schedule.start')} />
        </Form.Item>
        <Form.Item name={[...name, 'end']} label={t('alarmConfig.schedule.end')}>
          <TimeField placeholder={t('alarmConfig.schedule.end')} />
        </Form.Item>
        <Form.Item name={[...name, 'timezone']} label={t('alarmConfig.schedule.timezone')}>
          <TimeZoneSelect />
        </Form.Item>
      </div>
      <div className="alarm-muted alarm-schedule-hint">
        {t('alarmConfig.schedule.hint')}
        {wraps ? (
          <span className="alarm-schedule-overnight" data-testid="schedule-overnight">
            {start === end ? t('alarmConfig.schedule.allDay') : t('alarmConfig.schedule.overnight', { start, end })}
          </span>
        ) : null}
      </div>
    </div>
  );
}
