// One platform notification of the home screen and the dialog showing its body; an empty body
// shows the spec's 'No details!'.
import { Button, Empty, Modal, Tag, Typography } from 'antd';
import { NotificationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Notice } from '@iotc/shared/live';
import { formatTime } from './alert-item.tsx';

const LEVEL_COLOR: Record<Notice['level'], string> = {
  info: 'blue',
  warning: 'orange',
  important: 'red',
};

const LEVEL_ICON_COLOR: Record<Notice['level'], string> = {
  info: '#1677ff',
  warning: '#fa8c16',
  important: '#f5222d',
};

export function NoticeItem({ notice, onOpen }: { notice: Notice; onOpen: (notice: Notice) => void }) {
  const { t } = useTranslation();
  const color = LEVEL_ICON_COLOR[notice.level] ?? LEVEL_ICON_COLOR.info;
  return (
    <div className="home-notice" data-level={notice.level}>
      <span className="home-feed-icon" style={{ color, background: `${color}1a` }}>
        <NotificationOutlined />
      </span>
      <div className="home-feed-main">
        <div className="home-feed-title" data-testid="home-notice-title">
          <Tag color={LEVEL_COLOR[notice.level]} className="home-notice-level">
            {t(`home.noticeLevel.${notice.level}`)}
          </Tag>
          {notice.title}
        </div>
        <div className="home-feed-meta">
          <span className="home-feed-time">{formatTime(notice.publishedAt)}</span>
        </div>
      </div>
      <Button type="link" size="small" className="home-feed-link" data-testid="home-notice-details" onClick={() => onOpen(notice)}>
        {t('home.viewDetails')}
      </Button>
    </div>
  );
}

export function NoticeModal({ notice, open, onClose, afterClose }: { notice: Notice | null; open: boolean; onClose: () => void; afterClose: () => void }) {
  const { t } = useTranslation();
  const body = notice?.body.trim() ?? '';
  return (
    <Modal
      open={open}
      title={notice?.title}
      onCancel={onClose}
      afterClose={afterClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('common.ok')}
        </Button>
      }
      width={600}
      className="home-notice-modal"
    >
      {notice && (
        <div className="home-notice-modal-body" data-testid="home-notice-modal">
          <Typography.Text type="secondary" className="home-notice-modal-time">
            <Tag color={LEVEL_COLOR[notice.level]}>{t(`home.noticeLevel.${notice.level}`)}</Tag>
            {t('home.publishedAt', { time: formatTime(notice.publishedAt) })}
          </Typography.Text>
          {body ? (
            <div className="home-notice-body" data-testid="home-notice-body">
              {body}
            </div>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span data-testid="home-notice-no-details">{t('home.noDetails')}</span>} />
          )}
        </div>
      )}
    </Modal>
  );
}
