// A comment for a timeline (an alarm's, a work order's): Ctrl+Enter or the button sends, Enter
// alone starts a new line; the text stays in the box when sending fails and empties once it is sent.
import { useState } from 'react';
import { Button, Input } from 'antd';
import './comment-box.css';

export interface CommentBoxProps {
  /** Sends the trimmed text; calls `sent` once it is stored. */
  onSend: (text: string, sent: () => void) => void;
  pending: boolean;
  placeholder: string;
  sendText: string;
  /** Test ids: `<testId>`, `<testId>-text`, `<testId>-send`. */
  testId: string;
  maxLength?: number;
}

export function CommentBox({ onSend, pending, placeholder, sendText, testId, maxLength = 1000 }: CommentBoxProps) {
  const [text, setText] = useState('');
  const send = () => {
    const trimmed = text.trim();
    if (!trimmed || pending) return;
    onSend(trimmed, () => setText(''));
  };
  return (
    <div className="comment-box" data-testid={testId}>
      <Input.TextArea
        value={text}
        maxLength={maxLength}
        autoSize={{ minRows: 2, maxRows: 5 }}
        placeholder={placeholder}
        aria-label={placeholder}
        data-testid={`${testId}-text`}
        onChange={(e) => setText(e.target.value)}
        onPressEnter={(e) => {
          if (e.ctrlKey || e.metaKey) send();
        }}
      />
      <Button size="small" disabled={!text.trim()} loading={pending} onClick={send} data-testid={`${testId}-send`}>
        {sendText}
      </Button>
    </div>
  );
}
