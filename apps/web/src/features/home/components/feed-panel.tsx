// A home panel reading a feed page after page: skeleton while the first page loads, a retry when
// it fails, an empty state, then the items with more loaded when the end scrolls into view (or
// on "Load more"), and the spec's 'All loaded' once every row is on screen.
import { useEffect, useRef, type ReactNode } from 'react';
import { Button, Card, Divider, Empty, Skeleton } from 'antd';
import { Outcome } from '../../../components/outcome.tsx';
import { useTranslation } from 'react-i18next';

export interface FeedState<T> {
  items: T[];
  isPending: boolean;
  isError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
  refetch: () => unknown;
}

interface FeedPanelProps<T> {
  title: ReactNode;
  extra?: ReactNode;
  feed: FeedState<T>;
  itemKey: (item: T, index: number) => string;
  renderItem: (item: T) => ReactNode;
  emptyText: string;
  testId: string;
}

export function FeedPanel<T>({ title, extra, feed, itemKey, renderItem, emptyText, testId }: FeedPanelProps<T>) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = feed;

  // Scrolling the end of the list into view reads the next page; a failed read waits for the button.
  useEffect(() => {
    const root = scroller.current;
    const target = sentinel.current;
    if (!root || !target || !hasNextPage || isFetchNextPageError || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { root, rootMargin: '0px 0px 80px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  let body: ReactNode;
  if (feed.isPending) {
    body = (
      <div className="home-feed-skeleton" data-testid={`${testId}-loading`}>
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} active avatar={{ size: 'small' }} title={false} paragraph={{ rows: 2 }} />
        ))}
      </div>
    );
  } else if (feed.isError && feed.items.length === 0) {
    body = (
      <Outcome
        status="warning"
        title={t('home.loadFailed')}
        data-testid={`${testId}-error`}
        extra={
          <Button onClick={() => void feed.refetch()} data-testid={`${testId}-retry`}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  } else if (feed.items.length === 0) {
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} data-testid={`${testId}-empty`} />;
  } else {
    body = (
      <>
        <ul className="home-feed-list" data-testid={`${testId}-list`}>
          {feed.items.map((item, i) => (
            <li key={itemKey(item, i)} className="home-feed-item" data-testid={`${testId}-item`}>
              {renderItem(item)}
            </li>
          ))}
        </ul>
        <div ref={sentinel} className="home-feed-end">
          {hasNextPage ? (
            <Button
              type="link"
              loading={isFetchingNextPage}
              onClick={() => void fetchNextPage()}
              data-testid={`${testId}-more`}
            >
              {isFetchNextPageError ? t('home.loadMoreFailed') : t('home.loadMore')}
            </Button>
          ) : (
            <Divider plain className="home-feed-all-loaded">
              <span data-testid={`${testId}-all-loaded`}>{t('home.allLoaded')}</span>
            </Divider>
          )}
        </div>
      </>
    );
  }

  return (
    <Card title={title} extra={extra} className="home-feed" data-testid={testId}>
      <div ref={scroller} className="home-feed-scroll">
        {body}
      </div>
    </Card>
  );
}
