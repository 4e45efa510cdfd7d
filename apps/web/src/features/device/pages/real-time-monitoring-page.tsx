// deviceManage/realTimeMonitoring: the default landing screen. A titled placeholder until the
// device intake brings live device data.
import { Card, Result } from 'antd';
import { MonitorOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../../../lib/screen.ts';

export default function RealTimeMonitoringPage(_props: ScreenProps) {
  const { t } = useTranslation();
  return (
    <Card title={<span data-testid="screen-title">{t('monitor.title')}</span>} data-testid="real-time-monitoring">
      <Result
        icon={<MonitorOutlined />}
        title={t('monitor.title')}
        subTitle={<span data-testid="screen-placeholder">{t('monitor.placeholder')}</span>}
      />
    </Card>
  );
}
