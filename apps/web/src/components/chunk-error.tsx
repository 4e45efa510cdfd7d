// What a screen shows when its code failed to load (spec section 8: 'Loading chunk N failed'
// with the type and the request) or failed while rendering.
import { Component, type ReactNode } from 'react';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChunkLoadError } from '../lib/chunk.ts';
import { Outcome } from './outcome.tsx';

export function ChunkError({ error, onRetry }: { error: ChunkLoadError; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Outcome
      status="warning"
      data-testid="chunk-error"
      title={t('chunk.failed', { chunk: error.chunk })}
      subTitle={
        // A plain block: the subtitle already sets the secondary colour, and antd's Typography
        // (with its editing and copying parts) would weigh on the first load.
        <div>
          <span data-testid="chunk-error-type" data-type={error.type}>
            {t('chunk.type')}: {t(`chunk.type.${error.type}`)}
          </span>
          <br />
          <span data-testid="chunk-error-request">
            {t('chunk.request')}: {error.request}
          </span>
        </div>
      }
      extra={
        <Button type="primary" onClick={onRetry} data-testid="chunk-error-retry">
          {t('common.retry')}
        </Button>
      }
    />
  );
}

function RenderError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Outcome
      status="error"
      data-testid="screen-error"
      title={t('routeError.title')}
      subTitle={t('routeError.subtitle')}
      extra={
        <Button type="primary" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}

interface BoundaryProps {
  onRetry: () => void;
  children: ReactNode;
}

/** Keeps a failing screen inside its frame, so the navigation stays usable (React logs the error). */
export class ScreenErrorBoundary extends Component<BoundaryProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (error instanceof ChunkLoadError) return <ChunkError error={error} onRetry={this.props.onRetry} />;
    if (error) return <RenderError onRetry={this.props.onRetry} />;
    return this.props.children;
  }
}
