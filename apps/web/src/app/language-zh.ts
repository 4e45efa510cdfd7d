// Chinese of the interface, fetched as one chunk when Chinese is in use (i18n.ts):
// the first load's messages (the account screens'; the console's parts come with its frame and each screen, i18n.ts),
// antd's texts and dayjs's month and weekday names.
import 'dayjs/locale/zh-cn';
import antd from 'antd/locale/zh_CN';
import messages from '../locales/zh.json?part=account';

export default { messages, antd };
