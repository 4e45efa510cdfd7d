// A light stand-in for antd's Result on what the first load carries (a screen whose code did not
// load, a route that failed): antd's Result module brings its 403/404/500 illustrations (10 KB
// gzip) with it. Same layout: the status icon, title, subtitle and actions, centred; colours
// from the theme's tokens, so the default, red and dark themes all read.
import type { ReactNode } from 'react';
import { theme } from 'antd';
import { CloseCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';

interface OutcomeProps {
  status: 'warning' | 'error';
  title?: ReactNode;
  className?: string;
  subTitle?: ReactNode;
  extra?: ReactNode;
  'data-testid'?: string;
}

export function Outcome({ status, title, subTitle, extra, className, 'data-testid': testId }: OutcomeProps) {
  const { token } = theme.useToken();
  const Icon = status === 'error' ? CloseCircleFilled : ExclamationCircleFilled;
  return (
    <div className={className ? `iotc-outcome ${className}` : 'iotc-outcome'} data-testid={testId}>
      <Icon className="iotc-outcome-icon" style={{ color: status === 'error' ? token.colorError : token.colorWarning }} />
      {title ? (
        <div className="iotc-outcome-title" style={{ color: token.colorTextHeading }}>
          {title}
        </div>
      ) : null}
      {subTitle ? (
        <div className="iotc-outcome-subtitle" style={{ color: token.colorTextDescription }}>
          {subTitle}
        </div>
      ) : null}
      {extra ? <div className="iotc-outcome-extra">{extra}</div> : null}
    </div>
  );
}
