// antd's message, notification and modal for code outside React before the console frame is
// there (lib/feedback.ts): loaded only when such a call comes, e.g. a server error on the login
// page. Its holders render inside the providers' ConfigProvider, so theme and locale apply.
import { useEffect } from 'react';
import { message, Modal, notification } from 'antd';
import { registerFeedback } from '../lib/feedback.ts';

export default function FeedbackHost() {
  const [messageApi, messageHolder] = message.useMessage();
  const [notificationApi, notificationHolder] = notification.useNotification();
  const [modalApi, modalHolder] = Modal.useModal();
  useEffect(
    () => registerFeedback({ message: messageApi, notification: notificationApi, modal: modalApi }),
    [messageApi, notificationApi, modalApi],
  );
  return (
    <>
      {messageHolder}
      {notificationHolder}
      {modalHolder}
    </>
  );
}
