// Messages from code outside React (the HTTP client, a loader) before the console: the providers
// fetch the feedback host when the first one comes and show it; with the console's antd <App>
// in place (it registers its own), messages still show.
import { afterEach, describe, expect, it } from 'vitest';
import { act } from 'react';
import { render, setEnglish, type Rendered } from '../test/dom.tsx';
import { settleUntil } from '../test/form.ts';
import { feedbackWanted, withFeedback } from '../lib/feedback.ts';
import { Providers } from './providers.tsx';
import { FeedbackApp } from './feedback-app.tsx';

let mounted: Rendered | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

describe('feedback outside React', () => {
  it('before the console the first message loads the host and shows; with the console messages still show', async () => {
    await setEnglish();
    mounted = render(
      <Providers>
        <p>login</p>
      </Providers>,
    );
    // Nothing is fetched for feedback until a message comes.
    expect(feedbackWanted()).toBe(false);
    act(() => withFeedback(({ message }) => void message.error('The server could not answer')));
    expect(feedbackWanted()).toBe(true);
    await settleUntil(() => document.body.textContent!.includes('The server could not answer'));
    expect(feedbackWanted()).toBe(false);

    // The console's <App> registers its own feedback, the newest in use.
    mounted.rerender(
      <Providers>
        <FeedbackApp>
          <p>console</p>
        </FeedbackApp>
      </Providers>,
    );
    act(() => withFeedback(({ notification }) => notification.info({ title: 'From the console', key: 'c' })));
    await settleUntil(() => document.body.textContent!.includes('From the console'));
  });
});
